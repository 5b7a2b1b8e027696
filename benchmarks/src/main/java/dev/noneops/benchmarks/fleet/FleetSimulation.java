package dev.noneops.benchmarks.fleet;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.ports.machine.Machine;
import dev.noneops.ports.machine.MachineCondition;
import dev.noneops.ports.machine.MachinePhase;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.machine.SimClusterApi;
import dev.noneops.testkit.machine.SimMachineApi;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A fleet, by simulation: {@code --nodes} simulated hosts (200 by default), each bootstrapped on
 * Kubernetes 1.31.4 with its agent and running its own daemon, which registers and follows its
 * Machine through its own clients of one simulated API server; every node runs one pod (a
 * ReplicaSet's, which its drain evicts). A rollout raises the Machines' repave counters to
 * 1.31.5 in waves of {@code --wave} nodes (20 by default), the nodes of a wave ticked in parallel
 * until each has acknowledged its counter. {@code --failing-percent} of the nodes (2 by default)
 * get a target whose kubelet never becomes ready: their upgrade rolls back and their Machine is
 * reported Failed. {@code --never-ready-percent} more (2 by default) get a target whose kubelet
 * answers its healthz but whose Node never becomes Ready: the readiness gate with the cluster's
 * view (every node has its cluster's credentials) rolls it back after its bound, 5 minutes. After the rollout every watch is resynced and every daemon ticked again: a
 * quarantined target tried again would show as a retry.
 *
 * <p>Prints a progress line on stderr while it runs and a Markdown table on stdout at the end:
 * nodes upgraded, rolled back and Failed, retries of a quarantined target, virtual and wall time
 * per wave, API requests per node per repave and while idle, and the heap. Run with the
 * benchmarks module's class path, e.g. {@code java -cp ... dev.noneops.benchmarks.fleet.FleetSimulation
 * --nodes 200 --wave 20}.
 */
public final class FleetSimulation {
  static {
    // the nodes' own INFO lines (200 nodes' applied configurations) would drown the progress line
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
  }

  private static final AgentConfig FIRST = SimNode.config("1.31.4", "", "blue");
  private static final AgentConfig TARGET = SimNode.config("1.31.5", "", "blue");
  private static final int IDLE_TICKS = 10;
  private static final int MAX_TICKS_PER_WAVE = 50;

  private FleetSimulation() {}

  /** One wave's figures. */
  private record Wave(int index, int nodes, Duration virtual, Duration wall, long requests) {}

  public static void main(String[] args) throws Exception {
    Map<String, String> options = options(args);
    int count = Integer.parseInt(options.getOrDefault("--nodes", "200"));
    int waveSize = Integer.parseInt(options.getOrDefault("--wave", "20"));
    double failingPercent = Double.parseDouble(options.getOrDefault("--failing-percent", "2"));
    double neverReadyPercent =
        Double.parseDouble(options.getOrDefault("--never-ready-percent", "2"));
    int threads = Integer.parseInt(options.getOrDefault(
        "--threads", Integer.toString(Runtime.getRuntime().availableProcessors())));
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    PrintStream progress = System.err;

    long heapBefore = usedHeap();
    long started = System.nanoTime();
    SimMachineApi api = SimMachineApi.createWithDelivery(Runnable::run);
    SimClusterApi cluster = new SimClusterApi();
    int failing = (int) Math.round(count * failingPercent / 100.0);
    int failEvery = failing == 0 ? Integer.MAX_VALUE : count / failing;
    int neverReady = (int) Math.round(count * neverReadyPercent / 100.0);
    int neverReadyEvery = neverReady == 0 ? Integer.MAX_VALUE : count / neverReady;
    List<FleetNode> fleet = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      boolean healthzFails =
          failing > 0 && i % failEvery == failEvery / 2 && i / failEvery < failing;
      boolean notReady = !healthzFails
          && neverReady > 0
          && i % neverReadyEvery == neverReadyEvery / 4
          && i / neverReadyEvery < neverReady;
      FleetNode node = new FleetNode(
          i,
          FIRST,
          TARGET,
          healthzFails
              ? FleetNode.Failure.HEALTHZ_NEVER_ANSWERS
              : notReady ? FleetNode.Failure.NEVER_READY_IN_CLUSTER : FleetNode.Failure.NONE,
          api,
          cluster);
      cluster.bindPod(node.name, "shop", "web-" + node.name, Map.of("app", "web"));
      fleet.add(node);
      progress.printf("\rbootstrapping %d/%d nodes", i + 1, count);
    }
    fleet.forEach(FleetNode::start);
    long bootstrapped = System.nanoTime();
    long heapFleet = usedHeap() - heapBefore;
    progress.printf(
        "\r%d nodes bootstrapped and registered in %.1f s%n",
        count, seconds(bootstrapped - started));

    ExecutorService pool = Executors.newFixedThreadPool(threads);
    tickAll(pool, fleet); // each daemon's first pass after its start reads its Machine once
    long idleBefore = requests(fleet);
    for (int t = 0; t < IDLE_TICKS; t++) {
      tickAll(pool, fleet);
    }
    long idleRequests = requests(fleet) - idleBefore;

    List<Wave> waves = new ArrayList<>();
    int doneNodes = 0;
    for (int from = 0; from < count; from += waveSize) {
      List<FleetNode> wave = fleet.subList(from, Math.min(count, from + waveSize));
      long requestsBefore = requests(wave);
      wave.forEach(FleetNode::takeVirtualBusy);
      long waveStart = System.nanoTime();
      for (FleetNode node : wave) {
        api.updateSpec(
            node.name,
            s -> s.withKubernetes(s.kubernetes().withVersion("1.31.5"))
                .withOperations(s.operations().withRepaveCounter(1)));
      }
      for (int t = 0; t < MAX_TICKS_PER_WAVE && !acknowledged(api, wave); t++) {
        tickAll(pool, wave);
      }
      Duration wall = Duration.ofNanos(System.nanoTime() - waveStart);
      Duration virtual = wave.stream()
          .map(FleetNode::takeVirtualBusy)
          .max(Duration::compareTo)
          .orElse(Duration.ZERO);
      waves.add(
          new Wave(waves.size() + 1, wave.size(), virtual, wall, requests(wave) - requestsBefore));
      doneNodes += wave.size();
      progress.printf(
          "\rwave %d: %d/%d nodes repaved (%d upgraded, %d failed)   ",
          waves.size(), doneNodes, count, upgraded(api, fleet), failed(api, fleet));
    }
    progress.println();

    Map<String, String> versionsAfter = new HashMap<>();
    Map<String, Long> mutatingAfter = new HashMap<>();
    for (FleetNode node : fleet) {
      versionsAfter.put(node.name, api.machine(node.name).orElseThrow().resourceVersion());
      mutatingAfter.put(node.name, mutating(node));
    }
    api.resyncWatches();
    for (int t = 0; t < 3; t++) {
      tickAll(pool, fleet);
    }
    int retries = 0;
    for (FleetNode node : fleet) {
      if (isFailed(api.machine(node.name).orElseThrow())
          && (!api.machine(node.name)
                  .orElseThrow()
                  .resourceVersion()
                  .equals(versionsAfter.get(node.name))
              || mutating(node) != mutatingAfter.get(node.name))) {
        retries++;
      }
    }
    pool.shutdown();
    long heapEnd = usedHeap() - heapBefore;

    int upgraded = upgraded(api, fleet);
    int rolledBack = 0;
    int rolledBackByTheCluster = 0;
    for (FleetNode node : fleet) {
      Machine m = api.machine(node.name).orElseThrow();
      if (isFailed(m) && node.activeVersion().orElse("").startsWith("1.31.4")) {
        rolledBack++;
        if (node.failure == FleetNode.Failure.NEVER_READY_IN_CLUSTER
            && m.status()
                .condition(MachineCondition.REPAVED)
                .map(c -> c.message().contains("the cluster did not see the node Ready"))
                .orElse(false)) {
          rolledBackByTheCluster++;
        }
      }
    }
    long repaveRequests = waves.stream().mapToLong(Wave::requests).sum();
    out.println(table(
        count,
        waveSize,
        failing,
        neverReady,
        threads,
        upgraded,
        rolledBack,
        rolledBackByTheCluster,
        retries,
        waves,
        repaveRequests,
        idleRequests,
        heapFleet,
        heapEnd,
        Duration.ofNanos(System.nanoTime() - started)));
  }

  private static String table(
      int count,
      int waveSize,
      int failing,
      int neverReady,
      int threads,
      int upgraded,
      int rolledBack,
      int rolledBackByTheCluster,
      int retries,
      List<Wave> waves,
      long repaveRequests,
      long idleRequests,
      long heapFleet,
      long heapEnd,
      Duration total) {
    StringBuilder t = new StringBuilder();
    t.append(String.format(
        Locale.ROOT,
        "Fleet of %d simulated nodes, waves of %d, %d node(s) with a target whose kubelet never"
            + " becomes ready, %d whose kubelet answers healthz but whose Node never becomes Ready,"
            + " %d ticking thread(s), %d CPU(s); whole run %.1f s wall.%n%n",
        count,
        waveSize,
        failing,
        neverReady,
        threads,
        Runtime.getRuntime().availableProcessors(),
        seconds(total.toNanos())));
    t.append("| figure | value |\n|---|---|\n");
    t.append(row("nodes upgraded (1.31.4 → 1.31.5, Machine Joining, Repaved True)", upgraded));
    t.append(row("nodes rolled back and marked Failed", rolledBack));
    t.append(row(
        "of them, healthz answered but the Node never Ready: rolled back by the cluster's"
            + " readiness gate",
        rolledBackByTheCluster));
    t.append(row(
        "retries of a quarantined target (after a resync and 3 more ticks of every daemon)",
        retries));
    t.append(row(
        "API requests per node per repave (Machine and Node/pod calls)",
        String.format(Locale.ROOT, "%.1f", repaveRequests / (double) count)));
    t.append(row(
        "API requests of " + count + " idle daemons over " + IDLE_TICKS + " ticks each",
        idleRequests));
    t.append(row(
        "heap of the fleet after registration (" + count
            + " simulated hosts with their daemons, API server; after a GC)",
        String.format(
            Locale.ROOT, "%.1f MB (%.0f kB per node)", heapFleet / 1e6, heapFleet / 1e3 / count)));
    t.append(row(
        "heap at the end (after a GC)",
        String.format(
            Locale.ROOT, "%.1f MB (%.0f kB per node)", heapEnd / 1e6, heapEnd / 1e3 / count)));
    t.append(
        "\n| wave | nodes | virtual time (slowest node) | wall time | API requests per node |\n");
    t.append("|---:|---:|---:|---:|---:|\n");
    for (Wave w : waves) {
      t.append(String.format(
          Locale.ROOT,
          "| %d | %d | %.0f s | %.2f s | %.1f |%n",
          w.index(),
          w.nodes(),
          w.virtual().toMillis() / 1000.0,
          seconds(w.wall().toNanos()),
          w.requests() / (double) w.nodes()));
    }
    return t.toString();
  }

  private static String row(String figure, Object value) {
    return "| " + figure + " | " + value + " |\n";
  }

  private static void tickAll(ExecutorService pool, List<FleetNode> nodes) throws Exception {
    List<Future<?>> ticks = new ArrayList<>(nodes.size());
    for (FleetNode node : nodes) {
      ticks.add(pool.submit(node::tick));
    }
    for (Future<?> tick : ticks) {
      tick.get();
    }
  }

  private static boolean acknowledged(SimMachineApi api, List<FleetNode> wave) {
    return wave.stream()
        .allMatch(
            n -> api.machine(n.name).orElseThrow().status().operations().repaveCounter() >= 1);
  }

  private static int upgraded(SimMachineApi api, List<FleetNode> fleet) {
    int n = 0;
    for (FleetNode node : fleet) {
      Machine m = api.machine(node.name).orElseThrow();
      if (m.status().phase() == MachinePhase.JOINING
          && node.activeVersion().orElse("").startsWith("1.31.5")) {
        n++;
      }
    }
    return n;
  }

  private static int failed(SimMachineApi api, List<FleetNode> fleet) {
    return (int)
        fleet.stream().filter(n -> isFailed(api.machine(n.name).orElseThrow())).count();
  }

  private static boolean isFailed(Machine m) {
    return m.status().phase() == MachinePhase.FAILED;
  }

  private static long mutating(FleetNode node) {
    return node.lab.host.journal().calls().stream()
        .filter(c -> c.mutating())
        .filter(c -> c.args().stream().noneMatch(a -> a.contains("agent-state")))
        .count();
  }

  private static long requests(List<FleetNode> nodes) {
    return nodes.stream().mapToLong(FleetNode::requests).sum();
  }

  private static long usedHeap() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static double seconds(long nanos) {
    return nanos / 1e9;
  }

  private static Map<String, String> options(String[] args) {
    Map<String, String> out = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (!args[i].startsWith("--")) {
        throw new IllegalArgumentException("options are --name value: " + args[i]);
      }
      out.put(args[i], args[i + 1]);
    }
    return out;
  }
}
