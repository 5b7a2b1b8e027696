package dev.noneops.acceptance.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.goalstate.ContainerdSpec;
import dev.noneops.core.goalstate.MachineGoalState;
import dev.noneops.core.goalstate.NodeStart;
import dev.noneops.core.node.ConfigureResult;
import dev.noneops.core.node.Node;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import dev.noneops.testkit.gate.PortCall;
import dev.noneops.testkit.systemd.UnitEvent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Re-applying a configuration to a running node changes and restarts only what differs. */
class ReapplyScenarioTest {

  /** The agent's re-apply: configure, kernel modules, start with what changed. */
  private static ConfigureResult reapply(Node node) {
    boolean wasRunning = node.running();
    ConfigureResult changes = node.configure();
    node.loadKernelModules();
    node.start(wasRunning, changes);
    return changes;
  }

  private static List<String> unitJobs(SimNode lab) {
    return lab.host.journal().calls().stream()
        .filter(c -> c.port().equals("systemd")
            && List.of("start", "stop", "restart", "daemonReload").contains(c.method()))
        .map(c -> c.name() + (c.args().isEmpty() ? "" : " " + c.args().get(0)))
        .toList();
  }

  @Test
  void reapplyingTheSameConfigurationWritesNothingAndRestartsNothing() {
    SimNode lab = new SimNode();
    MachineGoalState goal = lab.goal(SimNode.config());
    lab.bootstrap(goal);
    FileTreeSnapshot before = lab.host.snapshot();
    lab.host.journal().clear();

    ConfigureResult changes = reapply(lab.node(SimNode.config()));

    assertThat(changes).isEqualTo(ConfigureResult.UNCHANGED);
    assertThat(lab.host.snapshot()).isEqualTo(before);
    assertThat(lab.host.journal().calls())
        .filteredOn(PortCall::mutating)
        .filteredOn(c -> c.port().equals("files"))
        .allSatisfy(
            c -> assertThat(c.method()).as("only the node lock is taken").isEqualTo("tryLock"));
    assertThat(unitJobs(lab)).isEmpty();
  }

  @Test
  void aLabelChangeRestartsKubeletOnly() {
    SimNode lab = new SimNode();
    lab.bootstrap(lab.goal(SimNode.config(Map.of("example.com/pool", "blue"))));
    lab.host.journal().clear();

    Node relabelled = lab.node(SimNode.config(Map.of("example.com/pool", "green")));
    ConfigureResult changes = reapply(relabelled);

    assertThat(changes).isEqualTo(new ConfigureResult(false, true, false));
    assertThat(unitJobs(lab))
        .containsExactly("systemd.daemonReload", "systemd.restart kubelet.service");
    assertThat(new String(readDropIn(lab, "20-node-config.conf")))
        .contains("--node-labels=example.com/pool=green");
  }

  @Test
  void aContainerdSettingChangeRestartsContainerdThenKubeletOnce() {
    SimNode lab = new SimNode();
    MachineGoalState goal = lab.goal(SimNode.config());
    lab.bootstrap(goal);
    lab.host.journal().clear();
    int seen = lab.host.systemd().history().size();

    ContainerdSpec c = goal.nodeStart().containerd();
    ContainerdSpec newSandbox = new ContainerdSpec(
        "registry.k8s.io/pause:3.10",
        c.containerdBinPath(),
        c.runcBinaryPath(),
        c.cniBinDir(),
        c.cniConfDir(),
        c.metricsAddress(),
        c.nvidiaRuntime());
    NodeStart s = goal.nodeStart();
    MachineGoalState changed = new MachineGoalState(
        goal.rootFs(), new NodeStart(newSandbox, s.kubelet(), s.localDns(), s.gpu()));
    ConfigureResult changes = reapply(lab.node(changed));

    assertThat(changes).isEqualTo(new ConfigureResult(true, false, false));
    // kubelet requires containerd, so a restart of containerd would restart a running kubelet
    // too: kubelet is stopped first and started after containerd, once
    assertThat(unitJobs(lab))
        .containsExactly(
            "systemd.stop kubelet.service",
            "systemd.restart containerd.service",
            "systemd.start kubelet.service");
    long kubeletStart =
        lab.host.journal().indexOf(call -> call.is("systemd.start", "kubelet.service"));
    long healthz = lab.host.journal().indexOf(call -> call.is("probes.httpOk"));
    assertThat(kubeletStart).isLessThan(healthz);
    List<UnitEvent> history = lab.host.systemd().history();
    assertThat(history.subList(seen, history.size()))
        .filteredOn(e -> e.event().equals("started"))
        .extracting(UnitEvent::unit)
        .containsExactly("containerd.service", "kubelet.service");
  }

  private static byte[] readDropIn(SimNode lab, String name) {
    try {
      return lab.host.ports().files().read(lab.paths.kubeletDropInDir().resolve(name));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
