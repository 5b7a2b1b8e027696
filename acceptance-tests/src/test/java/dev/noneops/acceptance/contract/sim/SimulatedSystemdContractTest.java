package dev.noneops.acceptance.contract.sim;

import dev.noneops.ports.systemd.Systemd;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.contract.SystemdContract;
import java.nio.file.Path;

class SimulatedSystemdContractTest extends SystemdContract {
  private static final Path UNITS = SimulatedHost.DEFAULT_SYSTEMD_DIR;
  private final SimulatedHost host = SimulatedHost.create();

  SimulatedSystemdContractTest() {
    host.installExecutable(Path.of("/usr/bin/sleep"), "sleep");
  }

  @Override
  protected Systemd systemd() {
    return host.ports().systemd();
  }

  @Override
  protected void writeUnitFile(String name, String content) throws Exception {
    host.fs().seedFile(UNITS.resolve(name), content, 0644);
  }

  @Override
  protected void deleteUnitFile(String name) throws Exception {
    for (String dir : host.fs().list(UNITS)) {
      if (dir.endsWith(".wants") || dir.endsWith(".requires")) {
        removeIfPresent(UNITS.resolve(dir).resolve(name));
      }
    }
    removeIfPresent(UNITS.resolve(name));
  }

  @Override
  protected void deleteUnitFileKeepingLinks(String name) throws Exception {
    removeIfPresent(UNITS.resolve(name));
  }

  private void removeIfPresent(Path path) throws Exception {
    if (host.fs().lstat(path).isPresent()) {
      host.fs().unlink(path);
      host.fs().fsync(path.getParent());
    }
  }

  @Override
  protected void restartBus() {
    host.systemd().loseBus();
    host.systemd().regainBus();
  }

  @Override
  protected String unitFilePath(String name) {
    return UNITS.resolve(name).toString();
  }

  @Override
  protected String longRunningCommand() {
    return "/usr/bin/sleep infinity";
  }

  @Override
  protected boolean wantsLinkExists(String target, String unit) {
    return host.systemd().isEnabled(unit, target);
  }
}
