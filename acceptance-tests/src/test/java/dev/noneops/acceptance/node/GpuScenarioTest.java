package dev.noneops.acceptance.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.goalstate.MachineGoalState;
import dev.noneops.core.goalstate.internal.GoalStateResolver;
import dev.noneops.core.node.ConfigureResult;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.internal.files.OwnershipStore;
import dev.noneops.core.node.internal.render.ContainerdConfigRenderer;
import dev.noneops.ports.host.HostInfo;
import dev.noneops.testkit.commands.CommandOutcome;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.host.SimHostFacts;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A GPU host gets the NVIDIA runtime and CDI setup; losing the GPU takes both away again. */
class GpuScenarioTest {
  private static final HostInfo GPU_HOST = new HostInfo(
      "amd64",
      "6.1.0-sim",
      "sim-node",
      List.of(Path.of("/dev/nvidia0")),
      false,
      SimHostFacts.DEFAULT.upstreamNameservers());
  private static final Path DROP_IN =
      Path.of("/etc/containerd/conf.d/" + ContainerdConfigRenderer.NVIDIA_DROP_IN);

  @Test
  void aGpuHostGetsTheNvidiaRuntimeAndCdiBeforeTheStackStartsAndLosesThemWithTheGpu()
      throws IOException {
    SimNode lab = new SimNode();
    lab.host.facts().set(GPU_HOST);
    lab.host.commands().register(List.of("nvidia-ctk"), CommandOutcome.ok());
    MachineGoalState gpuGoal = GoalStateResolver.resolve(SimNode.config(), GPU_HOST, lab.layout);
    assertThat(gpuGoal.nodeStart().containerd().nvidiaRuntime()).isTrue();

    lab.bootstrap(gpuGoal);

    assertThat(lab.host.ports().files().read(DROP_IN))
        .isEqualTo(ContainerdConfigRenderer.nvidiaDropIn());
    long cdi =
        lab.host.journal().indexOf(c -> c.is("commands.run", "nvidia-ctk", "cdi", "generate"));
    long localDns = lab.host.journal().indexOf(c -> c.is("systemd.startAll", "localdns.service"));
    assertThat(cdi).isPositive().isLessThan(localDns);

    lab.host.facts().set(SimHostFacts.DEFAULT);
    lab.host.journal().clear();
    Node withoutGpu = lab.node(SimNode.config());
    boolean wasRunning = withoutGpu.running();
    ConfigureResult changes = withoutGpu.configure();
    withoutGpu.start(wasRunning, changes);

    assertThat(changes).isEqualTo(new ConfigureResult(true, false, false));
    assertThat(lab.host.ports().files().exists(DROP_IN)).isFalse();
    assertThat(new OwnershipStore(lab.host.ports().files(), lab.paths.ownershipRecord())
            .load()
            .owns(DROP_IN))
        .isFalse();
    assertThat(lab.host.journal().calls())
        .filteredOn(c ->
            c.port().equals("systemd") && List.of("start", "stop", "restart").contains(c.method()))
        .extracting(c -> c.method() + " " + c.args().get(0))
        .containsExactly(
            "stop kubelet.service", "restart containerd.service", "start kubelet.service");
  }
}
