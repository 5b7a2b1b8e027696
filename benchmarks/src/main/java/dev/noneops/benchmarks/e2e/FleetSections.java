package dev.noneops.benchmarks.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rows 9 and 15 of docs/benchmarks.md from three runs of the fleet simulation ({@code bin/fleet}, each
 * its own JVM so its heap is its own) at 50, 200 and 800 nodes, waves of a tenth: row 9 is the
 * 200-node run's report, row 15 the per-node cost across the three.
 *
 * <p>Arguments: the row 9 and row 15 section files, the three runs' reports (50, 200, 800
 * nodes), and a line saying when and at which commit they ran.
 */
final class FleetSections {
  private static final Pattern HEAP = Pattern.compile(
      "\\| heap of the fleet after registration [^|]*\\| ([\\d.]+) MB \\((\\d+) kB per node\\) \\|");
  private static final Pattern HEAP_END = Pattern.compile(
      "\\| heap at the end \\(after a GC\\) \\| ([\\d.]+) MB \\((\\d+) kB per node\\) \\|");
  private static final Pattern WALL = Pattern.compile("whole run ([\\d.]+) s wall");

  private FleetSections() {}

  /** One run's figures, read from its report. */
  private record Run(
      int nodes,
      String upgraded,
      String rolledBack,
      String rolledBackByCluster,
      String retries,
      String requestsPerRepave,
      String idleRequests,
      String heapMb,
      int heapKbPerNode,
      String heapEndMb,
      String heapEndKbPerNode,
      String wallSeconds) {

    static Run of(int nodes, String report) {
      Matcher heap = find(HEAP, report);
      Matcher end = find(HEAP_END, report);
      return new Run(
          nodes,
          figure(report, "nodes upgraded"),
          figure(report, "nodes rolled back"),
          figure(report, "of them, healthz answered but the Node never Ready"),
          figure(report, "retries of a quarantined target"),
          figure(report, "API requests per node per repave"),
          figure(report, "API requests of " + nodes + " idle daemons"),
          heap.group(1),
          Integer.parseInt(heap.group(2)),
          end.group(1),
          end.group(2),
          find(WALL, report).group(1));
    }
  }

  public static void main(String[] args) throws IOException {
    if (args.length != 6) {
      throw new IllegalArgumentException(
          "usage: FleetSections <row 9 file> <row 15 file> <50> <200> <800> <when>");
    }
    List<Run> runs = new ArrayList<>();
    int[] sizes = {50, 200, 800};
    String report200 = "";
    for (int i = 0; i < sizes.length; i++) {
      String report = Files.readString(Path.of(args[2 + i]), StandardCharsets.UTF_8);
      runs.add(Run.of(sizes[i], report));
      if (sizes[i] == 200) {
        report200 = report.strip();
      }
    }
    String when = args[5];
    row9(report200, when).writeTo(Path.of(args[0]));
    row15(runs, when).writeTo(Path.of(args[1]));
  }

  private static Section row9(String report, String when) {
    return new Section()
        .heading("9. A fleet, by simulation: a rollout through Machine objects")
        .paragraph(report)
        .paragraph(
            "200 `SimulatedHost`s in one JVM (`-Xmx2g`), each bootstrapped on 1.31.4 with its agent"
                + " and running its own `NodeDaemon`, which registered its Machine at start and follows it"
                + " through its own clients of one `SimMachineApi` and one `SimClusterApi` (one"
                + " ReplicaSet pod per node, which each drain evicts). The rollout raised"
                + " `spec.kubernetes.version` to 1.31.5 and `spec.operations.repaveCounter` to 1 on 20"
                + " Machines at a time; the wave's daemons were ticked until every one had acknowledged its"
                + " counter. Every 50th node (4) got a target whose kubelet never becomes ready: its upgrade"
                + " rolled back and its Machine was reported `Failed`, reason `RolledBack`. Another 4 nodes"
                + " (every 50th, from another offset) got a target whose kubelet answers its healthz but whose Node never"
                + " becomes Ready: the readiness gate with the cluster's view (each node reaches its"
                + " cluster) rolled it back after its 5-minute bound, naming the Node's `Ready=False`."
                + " Afterwards every"
                + " watch was resynced and every daemon ticked 3 more times: a quarantined target tried"
                + " again would have changed its Machine or its host.")
        .paragraph(
            "Virtual time is each node's own simulated clock during its ticks, the wave's slowest"
                + " node: a repave takes 10 s (the drain, the upgrade's waits, the Node's registration polled"
                + " every 5 s); a rollback 130 s, of which 120 s is kubelet's healthz timeout; a rollback by the"
                + " cluster's readiness gate 305 s, of which 300 s is its bound. Wall time is"
                + " the machine's. The 17 API requests of a repave: the Machine read, the `Provisioning`"
                + " status (read, write), cordon, the pods listed before and after the eviction, one"
                + " eviction, the Node deleted, the API server's `/version` (the version skew policy),"
                + " the Node's readiness twice (whether the credentials may read it, before the"
                + " switch; the readiness gate, after), the Node read twice until kubelet"
                + " registered it again, uncordon, the outcome's status (read, write), and the"
                + " `Repaved` Event. Idle daemons make none: the watch wakes"
                + " them. The heap is the whole simulation's after a GC (the hosts' in-memory file systems"
                + " and call journals included), so it bounds the daemons' own from above.")
        .paragraph("Produced by `bin/fleet --nodes 200 --wave 20`"
            + " (`dev.noneops.benchmarks.fleet.FleetSimulation`, no root needed), " + when + ".");
  }

  private static Section row15(List<Run> runs, String when) {
    Section s = new Section()
        .heading("15. Cost curve: the fleet by nodes")
        .paragraph("`bin/fleet --nodes N --wave N/10` (row 9's simulation: N `SimulatedHost` nodes,"
            + " each with its own agent's daemon, against one simulated API server; 2 % of the nodes"
            + " get a target whose kubelet never becomes ready, 2 % one whose Node never becomes"
            + " Ready), N = 50, 200 and 800, each in its own"
            + " JVM, one after another, " + when
            + ". The simulation has no baseline: its figures are"
            + " counts and heap, which do not depend on load.")
        .line(
            "| nodes | upgraded | rolled back and Failed | of them by the cluster's readiness gate"
                + " | retries of a quarantined target | API"
                + " requests per node per repave | API requests while idle (10 ticks each) | heap after"
                + " registration | per node | heap at the end | per node | whole run, wall |")
        .line("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (Run r : runs) {
      s.line("| " + r.nodes() + " | " + r.upgraded() + " | " + r.rolledBack() + " | "
          + r.rolledBackByCluster() + " | " + r.retries()
          + " | " + r.requestsPerRepave() + " | " + r.idleRequests() + " | " + r.heapMb() + " MB | "
          + r.heapKbPerNode() + " kB | " + r.heapEndMb() + " MB | " + r.heapEndKbPerNode()
          + " kB | "
          + r.wallSeconds() + " s |");
    }
    Run first = runs.get(0);
    Run last = runs.get(runs.size() - 1);
    double heapRatio = last.heapKbPerNode() / (double) first.heapKbPerNode();
    boolean requestsConstant =
        runs.stream().map(Run::requestsPerRepave).distinct().count() == 1;
    boolean met = heapRatio <= 1.5 && requestsConstant;
    s.line("");
    s.paragraph(String.format(
        Locale.ROOT,
        "Per-node heap after registration: at %d nodes %.2f× the %d-node figure; API requests per"
            + " node per repave %s (goal: per-node cost within 1.5× across the range: **%s**). The"
            + " per-node heap falls with N where the API server's and the JVM's fixed part is shared.",
        last.nodes(),
        heapRatio,
        first.nodes(),
        requestsConstant
            ? "constant at " + first.requestsPerRepave()
            : "from " + first.requestsPerRepave() + " to " + last.requestsPerRepave(),
        met ? "met" : "missed"));
    return s;
  }

  private static String figure(String report, String label) {
    Matcher m =
        find(Pattern.compile("\\| " + Pattern.quote(label) + "[^|]*\\| ([^|]+) \\|"), report);
    return m.group(1).strip();
  }

  private static Matcher find(Pattern pattern, String text) {
    Matcher m = pattern.matcher(text);
    if (!m.find()) {
      throw new IllegalArgumentException("the fleet report has no " + pattern);
    }
    return m;
  }
}
