package dev.noneops.acceptance.machine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.daemon.NodeDaemon;
import dev.noneops.daemon.RepaveOptions;
import dev.noneops.ports.cluster.ClusterNode;
import dev.noneops.ports.machine.MachineResource;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.machine.SimClusterApi;
import dev.noneops.testkit.machine.SimMachineApi;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A daemon wired to follow the node's Machine, on a node whose applied configuration names none:
 * it asks the cluster for no client and starts no thread for the Machine, until a configuration
 * naming one is applied.
 */
class FollowingNoMachineTest {
  private static final String WORKER = "noneops-machine";

  private final SimMachineApi api = SimMachineApi.createWithDelivery(Runnable::run);
  private final SimClusterApi cluster = new SimClusterApi();
  private final AtomicInteger machinesAsked = new AtomicInteger();
  private final SimNode lab = new SimNode();
  private NodeDaemon daemon;

  @AfterEach
  void stop() throws InterruptedException {
    if (daemon != null) {
      daemon.stop(Duration.ofSeconds(5));
    }
  }

  @Test
  void noMachineNamedNoClientAndNoThreadUntilOneIs() throws Exception {
    AgentConfig named = SimNode.config();
    lab.bootstrapWithAgent(unnamed(named));
    daemon = lab.daemon(new RecordingLog()).followMachine(new Counting(), RepaveOptions.DEFAULTS);

    daemon.start();
    for (int i = 0; i < 3; i++) {
      lab.host.clock().advance(Duration.ofSeconds(5));
      daemon.tick();
    }
    assertThat(machinesAsked).as("Machine clients asked for").hasValue(0);
    assertThat(workerThreads()).as("threads named " + WORKER).isZero();

    lab.writeDesired(named);
    daemon.tick();
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (machinesAsked.get() == 0 && System.nanoTime() < deadline) {
      daemon.tick();
      Thread.sleep(20);
    }
    assertThat(machinesAsked.get())
        .as("Machine clients asked for once one is named")
        .isPositive();
    assertThat(workerThreads()).isEqualTo(1);
  }

  private static AgentConfig unnamed(AgentConfig c) {
    return new AgentConfig(
        "",
        c.cluster(),
        c.kubelet(),
        c.cri(),
        c.cni(),
        c.ociImage(),
        c.attest(),
        c.downloads(),
        c.localDns());
  }

  private static long workerThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().equals(WORKER))
        .count();
  }

  private final class Counting implements NodeDaemon.Cluster {
    @Override
    public MachineResource machines() {
      machinesAsked.incrementAndGet();
      return api.client();
    }

    @Override
    public ClusterNode nodes() {
      return cluster.client();
    }
  }
}
