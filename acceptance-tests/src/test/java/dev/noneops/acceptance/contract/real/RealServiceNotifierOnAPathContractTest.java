package dev.noneops.acceptance.contract.real;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;

/** The notifier sending to a socket bound at a file system path, as systemd's {@code /run/systemd/notify}. */
class RealServiceNotifierOnAPathContractTest extends RealServiceNotifierContract {
  private Path dir;

  @Override
  String socketAddress() throws Exception {
    dir = Files.createTempDirectory("noneops-notify-");
    return dir.resolve("notify").toString();
  }

  @AfterEach
  void removeSocket() throws Exception {
    Files.deleteIfExists(dir.resolve("notify"));
    Files.deleteIfExists(dir);
  }
}
