package dev.noneops.acceptance.contract.real;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.acceptance.system.SystemdSandboxExtension;
import dev.noneops.ports.systemd.Systemd;
import dev.noneops.systemd.DbusSystemd;
import dev.noneops.testkit.contract.SystemdContract;
import dev.noneops.testkit.fixtures.sandbox.ExecResult;
import dev.noneops.testkit.fixtures.sandbox.SystemdSandbox;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The {@link Systemd} contract against a real systemd 252 booted in a {@link SystemdSandbox},
 * driven by {@link DbusSystemd} over the sandbox's real system bus. Unit files go to the
 * sandbox's {@code /etc/systemd/system}, written from the host through {@code /proc/<pid>/root}.
 */
class DbusSystemdContractTest extends SystemdContract {
  @RegisterExtension
  static final SystemdSandboxExtension SANDBOX = new SystemdSandboxExtension("systemd-contract");

  private static final String UNIT_DIR = "/etc/systemd/system";

  private static DbusSystemd systemd;

  @BeforeAll
  static void connect() {
    systemd = DbusSystemd.connect(SANDBOX.sandbox().busAddress());
  }

  @AfterAll
  static void disconnect() {
    if (systemd != null) {
      systemd.close();
    }
  }

  @Override
  protected Systemd systemd() {
    return systemd;
  }

  @Override
  protected void writeUnitFile(String name, String content) throws IOException {
    Files.writeString(unitDir().resolve(name), content);
  }

  @Override
  protected void deleteUnitFile(String name) throws IOException {
    try (DirectoryStream<Path> linkDirs =
        Files.newDirectoryStream(unitDir(), "*.{wants,requires}")) {
      for (Path linkDir : linkDirs) {
        Files.deleteIfExists(linkDir.resolve(name));
      }
    }
    Files.deleteIfExists(unitDir().resolve(name));
  }

  @Override
  protected void deleteUnitFileKeepingLinks(String name) throws IOException {
    Files.deleteIfExists(unitDir().resolve(name));
  }

  @Override
  protected void restartBus() {
    SystemdSandbox sandbox = SANDBOX.sandbox();
    ExecResult restarted = sandbox.systemctl("restart", "dbus.service");
    assertThat(restarted.succeeded())
        .as("systemctl restart dbus.service: %s", restarted)
        .isTrue();
  }

  @Override
  protected String unitFilePath(String name) {
    return UNIT_DIR + "/" + name;
  }

  @Override
  protected String longRunningCommand() {
    return "/bin/sleep infinity";
  }

  @Override
  protected boolean wantsLinkExists(String target, String unit) {
    return Files.isSymbolicLink(unitDir().resolve(target + ".wants").resolve(unit));
  }

  private static Path unitDir() {
    return SANDBOX.sandbox().path(UNIT_DIR);
  }
}
