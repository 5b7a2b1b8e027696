package dev.noneops.acceptance.upgrade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.node.Node;
import dev.noneops.core.upgrade.UpgradeFailedException;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.gate.SimulatedCrash;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * DESIGN.md section 6, proven at every crash point. For the whole caller sequence of a
 * successful upgrade (upgrade, persist the applied config, commit) and of a failed one (the new
 * kubelet never gets ready, so the upgrade rolls back), the simulated host loses power at crash
 * point k (every mutating port call and every internal step of one, such as between the fsync and
 * the rename of a durable write), for every k; the host reboots on what was durable (enabled
 * units start as at boot), a fresh node runs {@code recoverUpgrade} with the applied config read
 * from disk, and every invariant is checked. Then, from every distinct surviving state, the
 * recovery itself loses power at each of its mutating calls, and a further recovery must again
 * reach the invariants.
 *
 * <p>States that survive a crash are compared by their whole durable tree: two crash points that
 * leave byte-identical disks lead to identical recoveries, so each distinct state is recovered
 * once and every crash point that produced it is counted as recovered by that verification.
 */
class CrashPointSuiteTest {
  private static final AgentConfig V1 = UpgradeLab.config("1.31.2", "2.0.4", "blue");
  private static final AgentConfig V2 = UpgradeLab.config("1.31.3", "2.1.1", "green");

  /** One caller sequence to crash in. */
  private record Scenario(String name, Consumer<UpgradeLab> arrange, Consumer<UpgradeLab> run) {}

  @Test
  void everyCrashPointOfUpgradeRollbackCommitAndRecoveryRecovers() {
    long began = System.nanoTime();
    UpgradeLab reference = new UpgradeLab();
    reference.bootstrap(V1);
    reference.host.crash();
    HostImage base = HostImage.capture(reference.host);
    UpgradeLab previousLab = boot(base);
    Map<String, String> previousFiles = previousLab.sharedFiles();
    UpgradeLab targetLab = boot(base);
    succeed(targetLab);
    Map<String, String> targetFiles = targetLab.sharedFiles();
    UpgradeInvariants invariants =
        new UpgradeInvariants(V1, V2, previousFiles, targetFiles, reference.versionOf(V1), reference.versionOf(V2));

    List<Scenario> scenarios = List.of(
        new Scenario("upgrade, persist, commit", lab -> {}, CrashPointSuiteTest::succeed),
        new Scenario("upgrade that rolls back", lab -> lab.kubeletNeverReady.add(lab.versionOf(V2)), CrashPointSuiteTest::failAndRollBack));

    Tally tally = new Tally();
    Map<String, HostImage> survivors = new LinkedHashMap<>();
    for (Scenario scenario : scenarios) {
      for (long k = 1; ; k++) {
        UpgradeLab lab = boot(base);
        scenario.arrange().accept(lab);
        lab.host.faults().crashAtCrashPoint(k);
        if (!crashes(() -> scenario.run().accept(lab))) {
          break;
        }
        lab.host.crash();
        tally.covered++;
        List<String> atCrash = invariants.currentIsValid(lab);
        HostImage survivor = HostImage.capture(lab.host);
        String where = scenario.name() + ", crash point " + k;
        if (!atCrash.isEmpty()) {
          tally.fail(where + " (at the crash)", atCrash);
          continue;
        }
        survivors.putIfAbsent(survivor.digest(), survivor);
        tally.record(where, survivor, invariants, scenario.arrange());
      }
    }

    for (HostImage survivor : List.copyOf(survivors.values())) {
      for (long m = 1; ; m++) {
        UpgradeLab lab = bootImage(survivor);
        AgentConfig applied = lab.applied().orElseThrow();
        lab.host.faults().crashAtMutatingCall(m);
        if (!crashes(() -> lab.node(applied).recoverUpgrade(applied))) {
          break;
        }
        lab.host.crash();
        tally.covered++;
        List<String> atCrash = invariants.currentIsValid(lab);
        String where = "recovery from state " + survivor.digest().substring(0, 12) + ", crash at its mutating call " + m;
        if (!atCrash.isEmpty()) {
          tally.fail(where + " (at the crash)", atCrash);
          continue;
        }
        tally.record(where, HostImage.capture(lab.host), invariants, l -> {});
      }
    }

    System.out.println("crash points covered: " + tally.covered + ", recovered: " + tally.recovered);
    long seconds = (System.nanoTime() - began) / 1_000_000_000L;
    assertThat(tally.failures).as("crash points whose recovery broke an invariant").isEmpty();
    assertThat(tally.recovered).isEqualTo(tally.covered);
    assertThat(tally.covered).isGreaterThan(300);
    assertThat(seconds).as("the suite's run time in seconds").isLessThan(600);
  }

  /** Counts crash points and their verified recoveries; recovers each distinct surviving state once. */
  private static final class Tally {
    long covered;
    long recovered;
    final Map<String, List<String>> verdicts = new LinkedHashMap<>();
    final List<String> failures = new ArrayList<>();

    void record(String where, HostImage survivor, UpgradeInvariants invariants, Consumer<UpgradeLab> arrange) {
      List<String> verdict = verdicts.computeIfAbsent(survivor.digest(), d -> {
        UpgradeLab lab = bootImage(survivor);
        arrange.accept(lab);
        AgentConfig applied = lab.applied().orElseThrow();
        try {
          lab.node(applied).recoverUpgrade(applied);
        } catch (RuntimeException e) {
          return List.of("recovery failed: " + e);
        }
        return invariants.recovered(lab);
      });
      if (verdict.isEmpty()) {
        recovered++;
      } else {
        fail(where, verdict);
      }
    }

    void fail(String where, List<String> violations) {
      failures.add(where + ": " + String.join("; ", violations));
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

  /** A host started from {@code image} as after a boot: the enabled units come up, the v2 artifacts are published. */
  private static UpgradeLab boot(HostImage image) {
    return bootImage(image);
  }

  private static UpgradeLab bootImage(HostImage image) {
    SimulatedHost host = image.newHost();
    host.systemd().bootEnabledUnits();
    UpgradeLab lab = new UpgradeLab(host);
    lab.publish(V2);
    return lab;
  }

  /** The caller of a successful upgrade: upgrade, persist the applied config, commit. */
  private static void succeed(UpgradeLab lab) {
    Node node = lab.node(V2, Optional.of(V1));
    node.upgrade();
    lab.persistApplied(V2);
    node.commit();
  }

  /** The caller of an upgrade that fails and rolls back. */
  private static void failAndRollBack(UpgradeLab lab) {
    try {
      lab.node(V2, Optional.of(V1)).upgrade();
      throw new AssertionError("the upgrade to a kubelet that never gets ready succeeded");
    } catch (UpgradeFailedException expected) {
      // rolled back; the caller keeps the applied config of V1
    }
  }
}
