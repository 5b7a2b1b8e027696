package dev.noneops.acceptance.contract.sim;

import dev.noneops.ports.kernel.KernelTuning;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.contract.KernelTuningContract;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

class SimulatedKernelTuningContractTest extends KernelTuningContract {
  private final SimulatedHost host = SimulatedHost.create();

  @Override
  protected KernelTuning tuning() {
    return host.ports().kernel();
  }

  @Override
  protected void writePreset(String name, String content) throws IOException {
    host.ports().files().createDirectories(Path.of("/etc/sysctl.d"), 0755);
    host.ports().files().writeDurably(Path.of("/etc/sysctl.d", name), content, 0644);
  }

  @Override
  protected Optional<String> loadedModule() throws IOException {
    host.ports().kernel().loadModule("overlay");
    return Optional.of("overlay");
  }

  @Override
  protected Optional<String> missingModule() {
    host.kernel().makeUnavailable("noneops_no_such_module");
    return Optional.of("noneops_no_such_module");
  }

  @Override
  protected Optional<String> moduleInForce() throws IOException {
    return loadedModule();
  }
}
