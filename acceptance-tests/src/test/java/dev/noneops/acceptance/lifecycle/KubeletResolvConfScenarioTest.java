package dev.noneops.acceptance.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.node.ConfigureResult;
import dev.noneops.core.node.Node;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * kubelet hands pods of {@code dnsPolicy: Default} the resolv.conf it is given: on a host whose
 * {@code /etc/resolv.conf} names only systemd-resolved's stub {@code 127.0.0.53}, an address no pod
 * can reach, that is systemd-resolved's list of the real upstream servers, as kubeadm does.
 */
class KubeletResolvConfScenarioTest {
  private static final Path ETC_RESOLV_CONF = Path.of("/etc/resolv.conf");
  private static final Path RESOLVED_UPSTREAMS = Path.of("/run/systemd/resolve/resolv.conf");

  private static SimNode resolvedHost() throws IOException {
    SimNode lab = new SimNode();
    lab.host
        .fs()
        .seedFile(
            ETC_RESOLV_CONF,
            "# systemd-resolved stub\nnameserver 127.0.0.53\noptions edns0 trust-ad\nsearch .\n",
            0644);
    lab.host
        .fs()
        .seedFile(RESOLVED_UPSTREAMS, "nameserver 192.0.2.1\nnameserver 192.0.2.2\n", 0644);
    return lab;
  }

  /** Bootstrap as the agent does it, with the goal state resolved from the host's own facts. */
  private static Node bootstrap(SimNode lab) {
    lab.publish(lab.goal(SimNode.config()));
    Node node = lab.node(SimNode.config());
    node.provision();
    ConfigureResult changes = node.configure();
    node.loadKernelModules();
    node.start(false, changes);
    return node;
  }

  private static String kubeletUnit(SimNode lab) throws IOException {
    return lab.host.ports().files().readString(lab.paths.unit("kubelet.service"));
  }

  @Test
  void onASystemdResolvedHostKubeletReadsTheUpstreamServersNotTheStub() throws IOException {
    SimNode lab = resolvedHost();

    bootstrap(lab);

    assertThat(kubeletUnit(lab))
        .contains(" --resolv-conf=/run/systemd/resolve/resolv.conf ")
        .doesNotContain("--resolv-conf=/etc/resolv.conf");
  }

  @Test
  void onAHostWithItsOwnResolversKubeletReadsEtcResolvConf() throws IOException {
    SimNode lab = new SimNode();
    lab.host.fs().seedFile(ETC_RESOLV_CONF, "nameserver 192.0.2.53\n", 0644);

    bootstrap(lab);

    assertThat(kubeletUnit(lab))
        .contains(" --resolv-conf=/etc/resolv.conf ")
        .doesNotContain(RESOLVED_UPSTREAMS.toString());
  }

  @Test
  void aStubWithoutSystemdResolvedsUpstreamListLeavesKubeletOnEtcResolvConf() throws IOException {
    SimNode lab = new SimNode();
    lab.host.fs().seedFile(ETC_RESOLV_CONF, "nameserver 127.0.0.53\n", 0644);

    bootstrap(lab);

    assertThat(kubeletUnit(lab)).contains(" --resolv-conf=/etc/resolv.conf ");
  }

  @Test
  void reapplyingTheSameConfigurationOnASystemdResolvedHostChangesNothing() throws IOException {
    SimNode lab = resolvedHost();
    bootstrap(lab);
    FileTreeSnapshot before = lab.host.snapshot();

    Node again = lab.node(SimNode.config());
    ConfigureResult changes = again.configure();

    assertThat(changes).isEqualTo(ConfigureResult.UNCHANGED);
    assertThat(lab.host.snapshot()).isEqualTo(before);
  }
}
