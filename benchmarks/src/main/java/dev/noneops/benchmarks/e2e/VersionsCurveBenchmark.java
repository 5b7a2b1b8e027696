package dev.noneops.benchmarks.e2e;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.node.InstalledVersions;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.PruneResult;
import dev.noneops.testkit.fixtures.node.SimNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Row 11: how {@code noneops versions} ({@code Node.inspect().installedVersions()}) and prune ({@link
 * Node#pruneVersions()}) grow with the versions installed, at 2, 10 and 30, on the simulated host
 * ({@link SimNode}): a node bootstrapped at one version, the others prepared beside it
 * (each a full install of small artifacts, with its manifest). The simulated host runs the same
 * code over an in-memory file system, so the curve shows how our code scales with versions; the
 * real host adds the kernel's cost of reading and deleting the bytes, which grows with the bytes,
 * not with how the versions are walked. Warmed up once per size (the JIT), then timed.
 *
 * <p>Usage: {@code VersionsCurveBenchmark <section.md> [runs]}.
 */
public final class VersionsCurveBenchmark {
  static final List<Integer> VERSIONS = List.of(2, 10, 30);
  static final int WARM_UP = 3;

  private VersionsCurveBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path sectionFile = Path.of(args.length > 0 ? args[0] : "versions-curve.md");
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    if (runs < 1 || runs > 50) {
      throw new IllegalArgumentException("runs must be within 1..50: " + runs);
    }
    int timed = Math.max(runs * 3, 10);
    String loadBefore = LoadAverage.oneMinute();
    CostCurve versions = new CostCurve("versions", "version", "ms CPU");
    CostCurve prune = new CostCurve("versions", "version", "ms CPU");
    for (int n : VERSIONS) {
      measure(n, WARM_UP, new Samples("ms CPU"), new Samples("ms CPU"));
      Samples listed = new Samples("ms CPU");
      Samples pruned = new Samples("ms CPU");
      measure(n, timed, listed, pruned);
      versions.add(n, listed);
      prune.add(n, pruned);
    }
    Section section = new Section()
        .heading("11. Cost curve: `versions` and prune by installed versions")
        .paragraph(
            "On the simulated host (`SimNode`, in-memory file system and processes): a node bootstrapped at "
                + "one version and the others prepared beside it, each a full install of small stand-in artifacts with its "
                + "manifest. `versions`: `Node.inspect().installedVersions()` (every version with its size and what keeps it), the "
                + "command's work; prune: `Node.pruneVersions()` with every other version removable. The simulated host runs "
                + "the same code as the real one over an in-memory file system, so the curve shows how our code walks the "
                + "versions; on a real host reading and deleting the bytes adds a cost that grows with the bytes. Each size is "
                + "warmed up once, then " + Math.max(runs, 3) + " runs on fresh nodes.");
    versions.table("installed (`versions`)").forEach(section::line);
    prune.table("installed (prune)").forEach(section::line);
    section
        .paragraph("One-minute load average on " + Runtime.getRuntime().availableProcessors()
            + " CPUs as the row started and ended: " + loadBefore + " and "
            + LoadAverage.oneMinute()
            + LoadAverage.verdict(loadBefore) + ".")
        .writeTo(sectionFile);
  }

  private static void measure(int installed, int runs, Samples listed, Samples pruned)
      throws IOException {
    for (int r = 0; r < runs; r++) {
      SimNode lab = new SimNode();
      lab.bootstrap(version(0));
      for (int v = 1; v < installed; v++) {
        AgentConfig config = version(v);
        lab.publish(config);
        lab.node(config).prepare();
      }
      Node node = lab.node(version(0));
      double start = ThreadCpu.millis();
      InstalledVersions all = node.inspect().installedVersions();
      listed.add(ThreadCpu.millis() - start);
      if (all.versions().size() != installed) {
        throw new IllegalStateException("expected " + installed + " installed versions, got "
            + all.versions().size());
      }
      start = ThreadCpu.millis();
      PruneResult report = node.pruneVersions();
      pruned.add(ThreadCpu.millis() - start);
      if (report.removed().size() != installed - 1) {
        throw new IllegalStateException("prune removed " + report.removed() + " of " + installed
            + " versions; kept " + report.kept());
      }
    }
  }

  /** The {@code i}th version: the example node with containerd 2.0.i. */
  private static AgentConfig version(int i) {
    return SimNode.config("1.31.4", "2.0." + i, "blue");
  }
}
