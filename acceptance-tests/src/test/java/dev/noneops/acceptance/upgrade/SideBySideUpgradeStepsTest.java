package dev.noneops.acceptance.upgrade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.node.Params;
import dev.noneops.ports.events.NodeEvent;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.gate.PortCall;
import dev.noneops.testkit.process.ProcessSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An upgrade ends the pods, cleans the host networking and resets the units' counters side by
 * side; in production they interleave in any order, in the simulation (and so in the crash-point
 * suite) they run one after the other. That order covers every interleaving's crash because only
 * cleaning the host networking changes the file tree, the only thing a crash leaves: ending the
 * pods and resetting the counters leave every file as it was, durable or not (so nothing of theirs
 * can become durable later either), and their other changes (processes, systemd's counters) are
 * gone after a power loss. The file tree is compared as each step starts and as it completes;
 * cleaning the host networking, which removes the CNI configuration, shows that the comparison
 * sees a change.
 */
class SideBySideUpgradeStepsTest {
  private static final AgentConfig V1 = SimNode.config("1.31.2", "2.0.4", "blue");
  private static final AgentConfig V2 = SimNode.config("1.31.3", "2.0.4", "blue");
  private static final List<String> SIDE_BY_SIDE =
      List.of("upgrade-end-pods", "upgrade-clean-host-networking", "upgrade-reset-failed");

  /** The file tree's digest as a step started and as it completed, and the port calls it made. */
  private record Span(String before, String after, long mutatingCalls) {}

  @Test
  void onlyCleaningTheHostNetworkingChangesTheFileTree() throws IOException {
    Map<String, Span> spans = spansOfTheSideBySideSteps();

    assertThat(spans).containsOnlyKeys(SIDE_BY_SIDE);
    assertThat(spans.get("upgrade-end-pods").mutatingCalls())
        .as("ending the pods changes the host (it signals the shim and the pod's process)")
        .isPositive();
    assertThat(spans.get("upgrade-reset-failed").mutatingCalls()).isPositive();
    for (String step : List.of("upgrade-end-pods", "upgrade-reset-failed")) {
      assertThat(spans.get(step).after())
          .as(step + " leaves the file tree as it was")
          .isEqualTo(spans.get(step).before());
    }
    Span clean = spans.get("upgrade-clean-host-networking");
    assertThat(clean.after())
        .as("cleaning the host networking removes the CNI configuration")
        .isNotEqualTo(clean.before());
  }

  /** A node of V1 with a CNI configuration, a shim of its own and a pod's process, V2 published. */
  private static SimNode arranged() throws IOException {
    SimNode lab = new SimNode();
    lab.bootstrap(V1);
    lab.publish(V2);
    lab.host.fs().seedFile(lab.paths.cniConfDir().resolve("10-pods.conflist"), "{}", 0644);
    String address = lab.paths.containerdRunDir().resolve("containerd.sock").toString();
    Path shim = lab.layout.currentBin().resolve("containerd-shim-runc-v2");
    String shimExe = lab.host.fs().realPath(shim).toString();
    lab.host.spawn(ProcessSpec.of(
            shimExe, shim.toString(), "-namespace", "k8s.io", "-id", "c1", "-address", address)
        .inCgroup("/system.slice/containerd.service"));
    Path pause = lab.paths
        .containerdRunDir()
        .resolve("io.containerd.runtime.v2.task/k8s.io/c1/rootfs/pause");
    lab.host.installExecutable(pause, "#!/bin/sh\n");
    lab.host.spawn(ProcessSpec.of(pause.toString(), "/pause")
        .inCgroup("/kubepods.slice/kubepods-podA.slice/cri-containerd-c1.scope"));
    return lab;
  }

  private static Map<String, Span> spansOfTheSideBySideSteps() throws IOException {
    SimNode lab = arranged();
    Map<String, String> digests = new LinkedHashMap<>();
    Map<String, Integer> calls = new LinkedHashMap<>();
    Map<String, Span> spans = new LinkedHashMap<>();
    lab.node(Params.builder(lab.host.ports()).config(V2).previous(V1).events(e -> {
          if (!SIDE_BY_SIDE.contains(e.task())) {
            return;
          }
          if (e.kind() == NodeEvent.Kind.STARTED) {
            digests.put(e.task(), HostImage.capture(lab.host).digest());
            calls.put(e.task(), lab.host.journal().calls().size());
          } else if (e.kind() == NodeEvent.Kind.COMPLETED) {
            long mutating = lab.host.journal().calls().stream()
                .skip(calls.get(e.task()))
                .filter(PortCall::mutating)
                .count();
            spans.put(
                e.task(),
                new Span(digests.get(e.task()), HostImage.capture(lab.host).digest(), mutating));
          }
        }))
        .upgrade();
    return spans;
  }
}
