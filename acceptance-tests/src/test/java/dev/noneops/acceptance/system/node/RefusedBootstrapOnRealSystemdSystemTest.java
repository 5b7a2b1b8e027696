package dev.noneops.acceptance.system.node;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.noneops.acceptance.system.SystemdSandboxExtension;
import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.AgentConfigParser;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.PreflightFailedException;
import dev.noneops.core.node.Teardown;
import dev.noneops.core.node.internal.teardown.TeardownLog;
import dev.noneops.core.node.internal.teardown.TeardownSteps;
import dev.noneops.ports.HostPorts;
import dev.noneops.ports.events.NodeEvents;
import dev.noneops.systemd.DbusSystemd;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.sandbox.SystemdSandbox;
import dev.noneops.testkit.fixtures.system.SandboxHostPorts;
import dev.noneops.testkit.fixtures.system.SandboxNodes;
import dev.noneops.testkit.fixtures.system.SandboxRoot;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * On a real systemd whose host runs a kubelet of its own ({@code kubelet.service} from
 * {@code /usr/lib/systemd/system}, with pod data in {@code /var/lib/kubelet}): bootstrap is
 * refused before it writes anything, no node is found afterwards, and a reset removes nothing and
 * stops nothing.
 */
class RefusedBootstrapOnRealSystemdSystemTest {
  @RegisterExtension
  static final SystemdSandboxExtension SANDBOX = new SystemdSandboxExtension("refusal-system");

  private static final Path FOREIGN_UNIT = Path.of("/usr/lib/systemd/system/kubelet.service");
  private static final Path POD_DATA =
      Path.of("/var/lib/kubelet/pods/f00d/volumes/kubernetes.io~empty-dir/data/records.db");

  private static DbusSystemd systemd;
  private static HostPorts ports;

  @BeforeAll
  static void connect() throws Exception {
    SystemdSandbox sandbox = SANDBOX.sandbox();
    systemd = DbusSystemd.connect(sandbox.busAddress());
    ports = SandboxHostPorts.create(new SandboxRoot(sandbox.pid()), systemd);
  }

  @AfterAll
  static void disconnect() {
    if (systemd != null) {
      systemd.close();
    }
  }

  @Test
  void aRefusedBootstrapLeavesTheForeignKubeletItsDataAndAnEmptyOptAndResetTouchesNothing()
      throws Exception {
    SystemdSandbox sandbox = SANDBOX.sandbox();
    ports.files().createDirectories(FOREIGN_UNIT.getParent(), 0755);
    ports
        .files()
        .writeDurably(
            FOREIGN_UNIT,
            "[Unit]\nDescription=kubeadm's kubelet\n[Service]\nExecStart=/bin/sleep infinity\n",
            0644);
    ports.files().createDirectories(POD_DATA.getParent(), 0750);
    ports.files().writeDurably(POD_DATA, "a foreign pod's records\n", 0600);
    systemd.daemonReload();
    sandbox.exec("systemctl", "start", "kubelet.service").orThrow();
    long foreignPid = systemd.status("kubelet.service").mainPid();
    boolean optExisted = ports.files().exists(Path.of("/opt"));
    try {
      Node node = SandboxNodes.node(
          ports, Optional.of(config()), Optional.empty(), Duration.ofSeconds(30), NodeEvents.NONE);

      PreflightFailedException refused =
          catchThrowableOfType(PreflightFailedException.class, () -> node.bootstrap(false));

      assertThat(refused.failedChecks())
          .as("the foreign kubelet, and the downloads from a port nobody serves")
          .containsExactly("foreign-stack", "artifact-sources");
      assertThat(refused.report().check("foreign-stack").orElseThrow().detail())
          .contains("kubelet.service is active from ")
          .endsWith("/lib/systemd/system/kubelet.service");
      assertThat(refused).hasMessageContaining("nothing was changed");
      assertThat(ports.files().exists(Layout.defaultLayout().root()))
          .as("no layout, no lock file")
          .isFalse();
      assertThat(ports.files().exists(Path.of("/opt"))).as("/opt as it was").isEqualTo(optExisted);
      assertThat(ports
              .files()
              .exists(Path.of(dev.noneops.core.layout.NodeConstants.MODULES_LOAD_PATH)))
          .isFalse();
      Teardown teardown = SandboxNodes.teardown(ports);
      assertThat(teardown.present()).isFalse();

      TeardownLog reset = TeardownSteps.forRealHost(ports).removeBootstrapLeftovers();

      assertThat(reset.removed()).isEmpty();
      assertThat(ports.files().readString(POD_DATA)).isEqualTo("a foreign pod's records\n");
      assertThat(systemd.status("kubelet.service").isActive()).isTrue();
      assertThat(systemd.status("kubelet.service").mainPid())
          .as("the foreign kubelet was not restarted")
          .isEqualTo(foreignPid);
    } finally {
      sandbox.exec("systemctl", "stop", "kubelet.service");
      ports.files().removeDurably(FOREIGN_UNIT);
      ports.files().removeDurably(POD_DATA);
      systemd.daemonReload();
    }
  }

  private static AgentConfig config() throws Exception {
    String json =
        ConfigJson.of("1.31.4").withDownloadsFrom("http://127.0.0.1:9/").json();
    return AgentConfigParser.parseAndValidate(
        json.getBytes(UTF_8), ports.facts().read().arch());
  }
}
