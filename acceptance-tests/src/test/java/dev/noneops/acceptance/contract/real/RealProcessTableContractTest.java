package dev.noneops.acceptance.contract.real;

import dev.noneops.hostfs.RealHost;
import dev.noneops.ports.process.ProcessTable;
import dev.noneops.testkit.contract.ProcessTableContract;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;

/** The {@link ProcessTable} contract over the real {@code /proc}, with {@code sh} processes this test starts. */
class RealProcessTableContractTest extends ProcessTableContract {

  private static final ProcessTable PROCESSES = RealHost.create().processes();

  private final StartedProcesses started = new StartedProcesses();

  @AfterEach
  void stopProcesses() throws InterruptedException {
    started.stopAll();
  }

  @Override
  protected ProcessTable processes() {
    return PROCESSES;
  }

  @Override
  protected long startLongRunning(String marker) throws Exception {
    return started.start(marker);
  }

  @Override
  protected String longRunningExe() {
    try {
      return Path.of("/bin/sh").toRealPath().toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  protected void awaitGone(long pid) throws Exception {
    started.awaitGone(pid);
  }
}
