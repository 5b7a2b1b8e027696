package dev.noneops.benchmarks.e2e;

import dev.noneops.benchmarks.e2e.TeardownBenchmark.Shape;
import dev.noneops.benchmarks.e2e.TeardownBenchmark.SyntheticNode;
import dev.noneops.core.node.Teardown;
import dev.noneops.core.node.TeardownResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Row 10: how {@link Teardown#destroy()} on the real adapters grows with the node, on row 2's
 * synthetic node (real tmpfs and bind mounts below kubelet's pod directories, shim-like
 * processes carrying this node's containerd address, pod cgroups below a dedicated subtree of
 * the unified hierarchy) at 500, 2,000 and 8,000 mounts without shims, and at 100, 500 and 2,000
 * shims without mounts (one pod cgroup per 2.5 shims). Each run
 * builds the node afresh and checks that nothing is left.
 *
 * <p>Usage: {@code TeardownCurveBenchmark <section.md> [runs [mounts|shims <size>]]}; as row 2,
 * only in a private mount namespace. With a curve and a size it measures that one point (to
 * profile it).
 */
public final class TeardownCurveBenchmark {
  static final List<Integer> MOUNTS = List.of(500, 2_000, 8_000);
  static final List<Integer> SHIMS = List.of(100, 500, 2_000);

  private TeardownCurveBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path sectionFile = Path.of(args.length > 0 ? args[0] : "teardown-curve.md");
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    if (runs < 1 || runs > 20) {
      throw new IllegalArgumentException("runs must be within 1..20: " + runs);
    }
    TeardownBenchmark.requirePrivateMountNamespace();
    List<Integer> mountSizes = MOUNTS;
    List<Integer> shimSizes = SHIMS;
    if (args.length > 3) {
      int size = Integer.parseInt(args[3]);
      mountSizes = args[2].equals("mounts") ? List.of(size) : List.of();
      shimSizes = args[2].equals("shims") ? List.of(size) : List.of();
    }
    String loadBefore = LoadAverage.oneMinute();
    Path unified = TeardownBenchmark.unifiedHierarchy();
    Path cgroupTop = Files.createDirectory(unified.resolve(
        "noneops-bench-teardown-curve-" + ProcessHandle.current().pid()));
    Path work = Files.createTempDirectory(Path.of("/var/tmp"), "noneops-bench-teardown-curve-");
    Path shimBinary = TeardownBenchmark.shimBinary(work);
    CostCurve mounts = new CostCurve("mounts", "mount", "ms");
    CostCurve shims = new CostCurve("shims", "shim", "ms");
    List<String> leftovers = new ArrayList<>();
    int[] serial = {0};
    try {
      for (int m : mountSizes) {
        mounts.add(
            m,
            measure(
                new Shape(m / 10, 10, 0),
                runs,
                work,
                cgroupTop,
                unified,
                shimBinary,
                serial,
                leftovers));
      }
      for (int s : shimSizes) {
        shims.add(
            s,
            measure(
                new Shape(s * 2 / 5, 0, s),
                runs,
                work,
                cgroupTop,
                unified,
                shimBinary,
                serial,
                leftovers));
      }
    } finally {
      try (Stream<Path> walk = Files.walk(cgroupTop)) {
        for (Path dir : walk.filter(Files::isDirectory)
            .sorted((a, b) -> b.getNameCount() - a.getNameCount())
            .toList()) {
          Files.deleteIfExists(dir);
        }
      }
      Shell.deleteTree(work);
    }
    Section section = new Section()
        .heading("10. Cost curve: teardown by mounts and by shims")
        .paragraph(
            "`Teardown.destroy()` on `RealHost`, on row 2's synthetic node built afresh before every run (real tmpfs "
                + "and bind mounts, 7 and 3 in every 10, below `/var/lib/kubelet/pods/<uid>/volumes`, 10 per pod; shim-like "
                + "perl processes carrying the node's containerd address in argv, one pod cgroup per 2.5 shims), in a private "
                + "mount namespace. Mounts without shims, then shims without mounts; " + runs
                + " runs per size; after every run the driver checks that nothing is left. Marginal cost: the difference of "
                + "two neighbouring totals over the difference of their sizes (a fixed part, such as reading the host's `/proc`, "
                + "does not count in it).");
    mounts.table("mounts (no shims)").forEach(section::line);
    shims.table("shims (no mounts)").forEach(section::line);
    section
        .paragraph(
            leftovers.isEmpty()
                ? "Left behind: nothing."
                : "Left behind: " + String.join("; ", leftovers))
        .paragraph("One-minute load average on " + Runtime.getRuntime().availableProcessors()
            + " CPUs as the row started and ended: " + loadBefore + " and "
            + LoadAverage.oneMinute()
            + LoadAverage.verdict(loadBefore) + ".")
        .writeTo(sectionFile);
  }

  private static Samples measure(
      Shape shape,
      int runs,
      Path work,
      Path cgroupTop,
      Path unified,
      Path shimBinary,
      int[] serial,
      List<String> leftovers)
      throws Exception {
    Samples total = new Samples("ms");
    for (int r = 0; r < runs; r++) {
      int i = serial[0]++;
      SyntheticNode node = SyntheticNode.build(
          work.resolve("node-" + i), cgroupTop.resolve("run-" + i), unified, shimBinary, shape);
      try {
        long start = System.nanoTime();
        TeardownResult report = TeardownBenchmark.teardown(node, unified);
        double ms = (System.nanoTime() - start) / 1e6;
        total.add(ms);
        if (!report.complete()) {
          leftovers.add(shape + " run " + r + ": " + report.blocking());
        }
        for (String left : node.leftovers()) {
          leftovers.add(shape + " run " + r + ": " + left);
        }
        System.err.printf(
            "teardown curve: %d mounts, %d shims: %.0f ms%n", shape.mounts(), shape.shims(), ms);
      } finally {
        node.cleanUp();
      }
    }
    return total;
  }
}
