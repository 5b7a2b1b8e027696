package dev.noneops.acceptance.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.goalstate.MachineGoalState;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.internal.files.OwnershipStore;
import dev.noneops.core.node.internal.render.ContainerdConfigRenderer;
import dev.noneops.core.node.internal.render.CorefileRenderer;
import dev.noneops.core.node.internal.render.HostTuningRenderer;
import dev.noneops.core.node.internal.render.KubeconfigRenderer;
import dev.noneops.core.node.internal.render.StackUnits;
import dev.noneops.core.node.internal.version.VersionVerifier;
import dev.noneops.ports.files.FileType;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Bootstrap on a clean host lays down exactly the host layout of docs/concepts/host-layout.md. */
class BootstrapScenarioTest {

  @Test
  void bootstrapOnACleanHostProducesExactlyTheContractTree() throws IOException {
    SimNode lab = new SimNode();
    MachineGoalState goal = lab.goal(SimNode.config());
    String v = goal.rootFs().versionName();
    FileTreeSnapshot before = lab.host.snapshot();

    Node node = lab.bootstrap(goal);

    List<String> added = new ArrayList<>();
    for (String line : lab.host.snapshot().diff(before)) {
      added.add(line.replaceAll(" 0:0", "")
          .replaceAll(" sha256=[0-9a-f]{64} size=\\d+", "")
          .replace(v, "<v>"));
    }
    assertThat(added)
        .containsExactly(
            "+ /etc/containerd directory 0755",
            "+ /etc/containerd/config.toml regular 0644",
            "+ /etc/kubernetes directory 0755",
            "+ /etc/kubernetes/manifests directory 0700",
            "+ /etc/kubernetes/pki directory 0755",
            "+ /etc/kubernetes/pki/apiserver-client-ca.crt regular 0644",
            "+ /etc/modules-load.d directory 0755",
            "+ /etc/modules-load.d/unbounded-kubernetes.conf regular 0644",
            "+ /etc/sysctl.d directory 0755",
            "+ /etc/sysctl.d/99-kubernetes.conf regular 0644",
            "+ /etc/systemd/system/containerd.service regular 0644",
            "+ /etc/systemd/system/kubelet.service regular 0644",
            "+ /etc/systemd/system/kubelet.service.d directory 0755",
            "+ /etc/systemd/system/kubelet.service.d/10-kubeconfig.conf regular 0644",
            "+ /etc/systemd/system/kubelet.service.d/20-node-config.conf regular 0644",
            "+ /etc/systemd/system/kubelet.service.d/50-env-file.conf regular 0644",
            "+ /etc/systemd/system/localdns.service regular 0644",
            "+ /etc/systemd/system/multi-user.target.wants directory 0755",
            "+ /etc/systemd/system/multi-user.target.wants/containerd.service symlink 0777 -> /etc/systemd/system/containerd.service",
            "+ /etc/systemd/system/multi-user.target.wants/kubelet.service symlink 0777 -> /etc/systemd/system/kubelet.service",
            "+ /etc/systemd/system/multi-user.target.wants/localdns.service symlink 0777 -> /etc/systemd/system/localdns.service",
            "+ /etc/unbounded directory 0750",
            "+ /etc/unbounded/agent directory 0750",
            "+ /etc/unbounded/agent/none-kube1-owned-files.json regular 0600",
            "+ /etc/unbounded/localdns directory 0755",
            "+ /etc/unbounded/localdns/Corefile regular 0644",
            "+ /opt/cni directory 0755",
            "+ /opt/cni/bin directory 0755",
            "+ /opt/cni/bin/bridge symlink 0777 -> /opt/unbounded/node/current/libexec/cni/bridge",
            "+ /opt/cni/bin/host-local symlink 0777 -> /opt/unbounded/node/current/libexec/cni/host-local",
            "+ /opt/cni/bin/loopback symlink 0777 -> /opt/unbounded/node/current/libexec/cni/loopback",
            "+ /opt/cni/bin/portmap symlink 0777 -> /opt/unbounded/node/current/libexec/cni/portmap",
            "+ /opt/unbounded directory 0755",
            "+ /opt/unbounded/node directory 0755",
            "+ /opt/unbounded/node/.cni-before.json regular 0600",
            "+ /opt/unbounded/node/.created-parents regular 0644",
            "+ /opt/unbounded/node/.links-before.json regular 0600",
            "+ /opt/unbounded/node/.lock regular 0600",
            "+ /opt/unbounded/node/<v> directory 0755",
            "+ /opt/unbounded/node/<v>/MANIFEST.json regular 0644",
            "+ /opt/unbounded/node/<v>/bin directory 0755",
            "+ /opt/unbounded/node/<v>/bin/containerd regular 0755",
            "+ /opt/unbounded/node/<v>/bin/containerd-shim-runc-v2 regular 0755",
            "+ /opt/unbounded/node/<v>/bin/coredns regular 0755",
            "+ /opt/unbounded/node/<v>/bin/crictl regular 0755",
            "+ /opt/unbounded/node/<v>/bin/ctr regular 0755",
            "+ /opt/unbounded/node/<v>/bin/kube-proxy regular 0755",
            "+ /opt/unbounded/node/<v>/bin/kubectl regular 0755",
            "+ /opt/unbounded/node/<v>/bin/kubelet regular 0755",
            "+ /opt/unbounded/node/<v>/bin/runc regular 0755",
            "+ /opt/unbounded/node/<v>/libexec directory 0755",
            "+ /opt/unbounded/node/<v>/libexec/cni directory 0755",
            "+ /opt/unbounded/node/<v>/libexec/cni/LICENSE regular 0644",
            "+ /opt/unbounded/node/<v>/libexec/cni/README.md regular 0644",
            "+ /opt/unbounded/node/<v>/libexec/cni/bridge regular 0755",
            "+ /opt/unbounded/node/<v>/libexec/cni/host-local regular 0755",
            "+ /opt/unbounded/node/<v>/libexec/cni/loopback regular 0755",
            "+ /opt/unbounded/node/<v>/libexec/cni/portmap regular 0755",
            "+ /opt/unbounded/node/current symlink 0777 -> <v>",
            "+ /var/lib/kubelet directory 0750",
            "+ /var/lib/kubelet/bootstrap-kubeconfig regular 0600");

    Map<Path, byte[]> expectedContent = new TreeMap<>();
    var start = goal.nodeStart();
    expectedContent.put(
        lab.paths.containerdConfig(), ContainerdConfigRenderer.config(start.containerd()));
    expectedContent.put(
        lab.paths.unit("containerd.service"),
        StackUnits.containerd(start.containerd(), lab.paths.containerdConfig()));
    expectedContent.put(
        lab.paths.unit("kubelet.service"),
        StackUnits.kubelet(start.kubelet(), start.localDns(), lab.paths));
    StackUnits.kubeletDropIns(start.kubelet(), lab.paths)
        .forEach((name, bytes) ->
            expectedContent.put(lab.paths.kubeletDropInDir().resolve(name), bytes));
    Path corefile = lab.paths.localDnsConfigDir().resolve("Corefile");
    expectedContent.put(
        lab.paths.unit("localdns.service"), StackUnits.localDns(start.localDns(), corefile));
    expectedContent.put(corefile, CorefileRenderer.render(start.localDns()));
    expectedContent.put(
        lab.paths.bootstrapKubeconfig(),
        KubeconfigRenderer.render(start.kubelet(), lab.paths).content());
    expectedContent.put(lab.paths.apiServerCaCert(), start.kubelet().caCertPem());
    expectedContent.put(lab.paths.sysctlFile(), HostTuningRenderer.sysctl());
    expectedContent.put(lab.paths.modulesLoadFile(), HostTuningRenderer.modulesLoad());
    for (Map.Entry<Path, byte[]> e : expectedContent.entrySet()) {
      assertThat(lab.host.ports().files().read(e.getKey()))
          .as(e.getKey().toString())
          .isEqualTo(e.getValue());
    }

    assertThat(
            new VersionVerifier(lab.host.ports().files(), lab.layout).verify(v).verified())
        .isTrue();
    assertThat(node.version()).contains(v);
    assertThat(node.running()).isTrue();
    assertThat(lab.host.systemd().mainProcess("kubelet.service").orElseThrow().exe())
        .contains(lab.layout.binDir(v).resolve("kubelet").toString());
    assertThat(lab.host.kernel().loadedModules()).contains("overlay", "br_netfilter");
    assertThat(lab.host.kernel().sysctl("net.bridge.bridge-nf-call-iptables")).contains("1");
    assertThat(lab.host.kernel().link("localdns0")).hasValueSatisfying(link -> {
      assertThat(link.up()).isTrue();
      assertThat(link.addresses()).containsExactly("169.254.20.10/32");
    });
  }

  @Test
  void everySharedFileTheNodeWroteIsRecordedWithItsDigest() throws IOException {
    SimNode lab = new SimNode();
    Node node = lab.bootstrap(lab.goal(SimNode.config()));

    var record = new OwnershipStore(lab.host.ports().files(), lab.paths.ownershipRecord()).load();
    for (var entry : lab.host.snapshot().entries()) {
      boolean shared = !entry.path().startsWith("/opt/unbounded/")
          && !entry.path().startsWith("/etc/systemd/system/multi-user.target.wants")
          && !entry.path().startsWith("/etc/unbounded/agent")
          && entry.type() != FileType.DIRECTORY;
      boolean written = !List.of("/dev/null").contains(entry.path())
          && (entry.path().startsWith("/etc/")
              || entry.path().startsWith("/opt/cni")
              || entry.path().startsWith("/var/lib/kubelet"));
      if (shared && written) {
        assertThat(record.owns(Path.of(entry.path()))).as(entry.path()).isTrue();
      }
    }
    assertThat(record.get(lab.paths.containerdConfig()).orElseThrow().fingerprint())
        .isEqualTo(dev.noneops.core.node.internal.files.SharedFileWriter.sha256(
            lab.host.ports().files().read(lab.paths.containerdConfig())));
    assertThat(record.owns(Path.of("/etc/kubernetes/manifests"))).isTrue();
  }

  @Test
  void withoutStagedImagesOneRequestStartsLocalDnsContainerdAndKubelet() throws IOException {
    SimNode lab = new SimNode();
    MachineGoalState goal = lab.goal(SimNode.config());
    lab.host.fs().seedFile(Path.of("/var/lib/unbounded/images/notes.txt"), "not an image", 0644);

    lab.bootstrap(goal);

    List<String> starts = new ArrayList<>();
    for (var call : lab.host.journal().calls()) {
      if (call.is("systemd.start") || call.is("systemd.startAll")) {
        starts.add(call.name() + " " + String.join(" ", call.args()));
      }
    }
    assertThat(starts)
        .containsExactly("systemd.startAll localdns.service containerd.service kubelet.service");
    assertThat(lab.stackActive()).isTrue();
  }

  @Test
  void theStackStartsInOrderAndImportsStagedImagesAfterContainerd() throws IOException {
    SimNode lab = new SimNode();
    MachineGoalState goal = lab.goal(SimNode.config());
    lab.host.fs().seedFile(Path.of("/var/lib/unbounded/images/pause.tar"), "image", 0644);
    lab.host.fs().seedFile(Path.of("/var/lib/unbounded/images/notes.txt"), "not an image", 0644);
    String ctr = lab.layout.currentBin().resolve("ctr").toString();
    lab.host.commands().register(List.of(ctr), dev.noneops.testkit.commands.CommandOutcome.ok());

    lab.bootstrap(goal);

    List<String> order = new ArrayList<>();
    for (var call : lab.host.journal().calls()) {
      if (call.is("systemd.start") || call.is("systemd.startAll") || call.is("commands.run", ctr)) {
        order.add(call.name() + " " + String.join(" ", call.args()));
      }
    }
    assertThat(order)
        .containsExactly(
            "systemd.startAll localdns.service containerd.service",
            "commands.run " + ctr + " -n k8s.io images import /var/lib/unbounded/images/pause.tar",
            "systemd.start kubelet.service");
  }
}
