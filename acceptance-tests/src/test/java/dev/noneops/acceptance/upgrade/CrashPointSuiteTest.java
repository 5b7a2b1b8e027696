package dev.noneops.acceptance.upgrade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.node.Node;
import dev.noneops.core.upgrade.UpgradeFailedException;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.gate.SimulatedCrash;
import dev.noneops.testkit.node.SimulatedNode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Consumer;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * DESIGN.md section 6, proven at every crash point. For the whole caller sequence of a
 * successful upgrade (upgrade, persist the applied config, commit), of a failed one (the new
 * kubelet never gets ready, so the upgrade rolls back) and of a successful one followed by a prune
 * of the previous version (the last two counted from where they first differ from the successful
 * one, since before that they make the very same calls), the
 * simulated host loses power at crash point k (every mutating port call and every internal step
 * of one, such as between the fsync and the rename of a durable write), for every k; the host reboots on what was durable (enabled
 * units start as at boot), a fresh node runs {@code recoverUpgrade} with the applied config read
 * from disk, and every invariant is checked. Then every distinct recovery (distinct sequence of
 * mutating calls and their arguments) loses power at each of its mutating calls, and a further
 * recovery must again reach the invariants.
 *
 * <p>A crash leaves only the durable file tree, so a surviving state is captured as a
 * {@link HostImage} and laid into fresh hosts. Crash points whose surviving disks are
 * byte-identical lead to identical recoveries: each distinct state is recovered and checked once,
 * and every crash point that produced it counts as recovered by that check. Crash points run in
 * parallel, each on its own simulated host.
 */
class CrashPointSuiteTest {
  private static final AgentConfig V1 = SimulatedNode.config("1.31.2", "2.0.4", "blue");
  private static final AgentConfig V2 = SimulatedNode.config("1.31.3", "2.1.1", "green");

  /** One caller sequence to crash in. */
  private record Scenario(String name, Consumer<SimulatedNode> arrange, Consumer<SimulatedNode> run) {}

  /** What one crash left: where it was, the invariant violations at that instant, and the surviving disk. */
  private record Crash(String where, List<String> atCrash, HostImage survivor) {}

  @Test
  void everyCrashPointOfUpgradeRollbackCommitAndRecoveryRecovers() throws Exception {
    SimulatedNode reference = new SimulatedNode();
    reference.bootstrap(V1);
    reference.driftOwnedFiles();
    reference.host.crash();
    HostImage base = HostImage.capture(reference.host);
    Map<String, String> previousFiles = boot(base, true).sharedFiles();
    SimulatedNode targetLab = boot(base, true);
    succeed(targetLab);
    UpgradeInvariants invariants =
        new UpgradeInvariants(V1, V2, previousFiles, targetLab.sharedFiles(), reference.versionOf(V1), reference.versionOf(V2));

    List<Scenario> scenarios = List.of(
        new Scenario("upgrade, persist, commit", lab -> {}, CrashPointSuiteTest::succeed),
        new Scenario("upgrade that rolls back", lab -> lab.kubeletNeverReady.add(lab.versionOf(V2)), CrashPointSuiteTest::failAndRollBack),
        new Scenario("upgrade, persist, commit, prune", lab -> {}, CrashPointSuiteTest::succeedAndPrune));

    ForkJoinPool pool = new ForkJoinPool(Math.max(2, Runtime.getRuntime().availableProcessors()));
    try {
      Tally tally = new Tally(invariants);
      // the failing upgrade makes the very calls of the successful one until kubelet's wait fails,
      // the pruning one until its prune starts; their crash points from there on are their own
      for (Scenario scenario : scenarios) {
        long first = scenario == scenarios.get(0) ? 1 : firstCrashPointOfDivergence(base, scenarios.get(0), scenario);
        long points = crashPoints(base, scenario);
        List<Crash> crashes = pool.submit(() -> LongStream.rangeClosed(first, points).parallel()
            .mapToObj(k -> crashAt(base, scenario, k)).toList()).get();
        pool.submit(() -> tally.verify(crashes)).get();
      }
      long firstLevel = tally.covered;
      long firstStates = tally.verdicts.size();
      Map<List<String>, HostImage> trajectories = new LinkedHashMap<>();
      for (HostImage survivor : tally.survivors.values()) {
        trajectories.putIfAbsent(pool.submit(() -> recoveryTrajectory(survivor)).get(), survivor);
      }
      for (Map.Entry<List<String>, HostImage> trajectory : trajectories.entrySet()) {
        HostImage survivor = trajectory.getValue();
        long calls = trajectory.getKey().size();
        List<Crash> crashes = pool.submit(() -> LongStream.rangeClosed(1, calls).parallel()
            .mapToObj(m -> crashRecoveryAt(survivor, m)).toList()).get();
        pool.submit(() -> tally.verify(crashes)).get();
      }

      System.out.println("crash points covered: " + tally.covered + ", recovered: " + tally.recovered);
      System.err.println("upgrade/rollback/commit crash points " + firstLevel + " leaving " + firstStates + " distinct disks with "
          + trajectories.size() + " distinct recoveries; recovery crash points " + (tally.covered - firstLevel)
          + "; distinct disks checked in all " + tally.verdicts.size());
      assertThat(tally.failures).as("crash points whose recovery broke an invariant").isEmpty();
      assertThat(tally.recovered).isEqualTo(tally.covered);
      assertThat(tally.covered).as("crash points covered").isGreaterThan(1000);
    } finally {
      pool.shutdown();
    }
  }

  /** How many crash points the scenario passes when nothing crashes. */
  private static long crashPoints(HostImage base, Scenario scenario) {
    SimulatedNode lab = boot(base, true);
    scenario.arrange().accept(lab);
    long before = lab.host.journal().crashPointCount();
    scenario.run().accept(lab);
    return lab.host.journal().crashPointCount() - before;
  }

  /**
   * The crash point of {@code other} at which it first makes a mutating call {@code reference}
   * does not make at that position (the same call with the same arguments); every crash point
   * before it leaves the disk the reference's crash point of the same number leaves.
   */
  private static long firstCrashPointOfDivergence(HostImage base, Scenario reference, Scenario other) {
    List<String> expected = mutatingCalls(base, reference);
    List<String> actual = mutatingCalls(base, other);
    int i = 0;
    while (i < expected.size() && i < actual.size() && expected.get(i).equals(actual.get(i))) {
      i++;
    }
    SimulatedNode lab = boot(base, true);
    other.arrange().accept(lab);
    long before = lab.host.journal().crashPointCount();
    lab.host.faults().crashAtMutatingCall(i + 1);
    if (!crashes(() -> other.run().accept(lab))) {
      throw new AssertionError(other.name() + " made no mutating call " + (i + 1));
    }
    return lab.host.journal().crashPointCount() - before;
  }

  private static List<String> mutatingCalls(HostImage base, Scenario scenario) {
    SimulatedNode lab = boot(base, true);
    scenario.arrange().accept(lab);
    int before = lab.host.journal().calls().size();
    scenario.run().accept(lab);
    List<dev.noneops.testkit.gate.PortCall> calls = lab.host.journal().calls();
    return calls.subList(before, calls.size()).stream().filter(dev.noneops.testkit.gate.PortCall::mutating)
        .map(c -> c.port() + "." + c.method() + c.args()).toList();
  }

  private static Crash crashAt(HostImage base, Scenario scenario, long k) {
    SimulatedNode lab = boot(base, true);
    scenario.arrange().accept(lab);
    lab.host.faults().crashAtCrashPoint(k);
    if (!crashes(() -> scenario.run().accept(lab))) {
      throw new AssertionError(scenario.name() + " passed crash point " + k + " without crashing");
    }
    lab.host.crash();
    return new Crash(scenario.name() + ", crash point " + k, List.of(), HostImage.capture(lab.host));
  }

  /**
   * The mutating calls (each with its arguments) a recovery from {@code survivor} makes, in order.
   * Surviving disks whose recoveries make the very same calls on the very same paths are crashed
   * through one representative: crashing the others at the same calls exercises nothing new.
   */
  private static List<String> recoveryTrajectory(HostImage survivor) {
    SimulatedNode lab = boot(survivor, false);
    AgentConfig applied = lab.applied().orElseThrow();
    long before = lab.host.journal().calls().size();
    lab.node(applied).recoverUpgrade(applied);
    List<dev.noneops.testkit.gate.PortCall> calls = lab.host.journal().calls();
    return calls.subList((int) before, calls.size()).stream().filter(dev.noneops.testkit.gate.PortCall::mutating)
        .map(c -> (c.port() + "." + c.method() + c.args()).replaceAll(TEMP_NAME, HostFiles.TEMP_PREFIX + "*")).toList();
  }

  /** A temp file's name: which one an interrupted write left does not change what recovery does with it. */
  private static final String TEMP_NAME = java.util.regex.Pattern.quote(HostFiles.TEMP_PREFIX) + "[^/,\\]]*";

  private static Crash crashRecoveryAt(HostImage survivor, long m) {
    SimulatedNode lab = boot(survivor, false);
    AgentConfig applied = lab.applied().orElseThrow();
    lab.host.faults().crashAtMutatingCall(m);
    if (!crashes(() -> lab.node(applied).recoverUpgrade(applied))) {
      throw new AssertionError("a recovery passed its mutating call " + m + " without crashing");
    }
    lab.host.crash();
    return new Crash("recovery from state " + survivor.digest().substring(0, 12) + ", crash at its mutating call " + m, List.of(),
        HostImage.capture(lab.host));
  }

  /** Counts crash points and their verified recoveries; checks each distinct surviving state once. */
  private static final class Tally {
    final UpgradeInvariants invariants;
    final Map<String, List<String>> verdicts = new ConcurrentHashMap<>();
    final Map<String, HostImage> survivors = new LinkedHashMap<>();
    final List<String> failures = new ArrayList<>();
    long covered;
    long recovered;

    Tally(UpgradeInvariants invariants) {
      this.invariants = invariants;
    }

    void verify(Collection<Crash> crashes) {
      Map<String, HostImage> distinct = new LinkedHashMap<>();
      crashes.forEach(c -> distinct.putIfAbsent(c.survivor().digest(), c.survivor()));
      distinct.values().parallelStream().forEach(image -> verdicts.computeIfAbsent(image.digest(), d -> check(image)));
      for (Crash c : crashes) {
        covered++;
        survivors.putIfAbsent(c.survivor().digest(), c.survivor());
        List<String> verdict = verdicts.get(c.survivor().digest());
        if (verdict.isEmpty()) {
          recovered++;
        } else {
          failures.add(c.where() + ": " + String.join("; ", verdict));
        }
      }
    }

    /** The violations of one surviving state: at the crash, then after recovering it. */
    private List<String> check(HostImage image) {
      SimulatedNode lab = boot(image, false);
      List<String> out = new ArrayList<>();
      invariants.currentIsValid(lab).forEach(v -> out.add("at the crash: " + v));
      AgentConfig applied = lab.applied().orElseThrow();
      try {
        lab.node(applied).recoverUpgrade(applied);
      } catch (RuntimeException e) {
        out.add("recovery failed: " + e);
        return out;
      }
      out.addAll(invariants.recovered(lab));
      return out;
    }
  }

  private static boolean crashes(Runnable run) {
    try {
      run.run();
      return false;
    } catch (SimulatedCrash crash) {
      return true;
    }
  }

  /** A host started from {@code image} as after a boot: the enabled units come up; with {@code artifacts}, V2's are published. */
  private static SimulatedNode boot(HostImage image, boolean artifacts) {
    SimulatedHost host = image.newHost();
    host.systemd().bootEnabledUnits();
    SimulatedNode lab = new SimulatedNode(host);
    if (artifacts) {
      lab.publish(V2);
    }
    return lab;
  }

  /** The caller of a successful upgrade: upgrade, persist the applied config, commit. */
  private static void succeed(SimulatedNode lab) {
    Node node = lab.node(V2, Optional.of(V1));
    node.upgrade();
    lab.persistApplied(V2);
    node.commit();
  }

  /** The caller of a successful upgrade that then prunes the previous version. */
  private static void succeedAndPrune(SimulatedNode lab) {
    succeed(lab);
    lab.node(V2).pruneVersions();
  }

  /** The caller of an upgrade that fails and rolls back. */
  private static void failAndRollBack(SimulatedNode lab) {
    try {
      lab.node(V2, Optional.of(V1)).upgrade();
      throw new AssertionError("the upgrade to a kubelet that never gets ready succeeded");
    } catch (UpgradeFailedException expected) {
      // rolled back; the caller keeps the applied config of V1
    }
  }
}
