package dev.noneops.acceptance.upgrade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.acceptance.upgrade.CrashPointExplorer.Operation;
import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.UpgradeFailedException;
import dev.noneops.testkit.fixtures.node.SimNode;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The upgrade's invariants (docs/concepts/safety.md), proven at every crash point: of the whole
 * caller sequence of a successful upgrade (upgrade, persist the applied config, commit), of a
 * failed one (the new kubelet never gets ready, so the upgrade rolls back), of a successful one
 * followed by a prune of the previous version, and of every distinct boot's recovery gate from what
 * those crashes left. The node runs with its agent; after each crash the host boots on what was
 * durable as systemd boots it, the recovery gate making the node consistent with the applied config
 * read from disk before the stack's units start, with no other recovery; on the node as the boot
 * brought it up every invariant holds, the stack runs the version of the applied config and the
 * gate ran before it ({@link CrashPointExplorer} does the crashing).
 */
class CrashPointSuiteTest {
  private static final AgentConfig V1 = SimNode.config("1.31.2", "2.0.4", "blue");
  private static final AgentConfig V2 = SimNode.config("1.31.3", "2.1.1", "green");

  @Test
  void everyCrashPointOfUpgradeRollbackCommitAndRecoveryRecovers() throws Exception {
    HostImage base = aRunningNodeOfV1WhoseOwnedFilesDrifted();
    UpgradeInvariants invariants = invariantsOfUpgradingFromV1ToV2(base);

    try (CrashPointExplorer explorer =
        new CrashPointExplorer(base, lab -> lab.publish(V2), invariants)) {
      explorer.crashEveryPointOf(
          new Operation("upgrade, persist, commit", lab -> {}, CrashPointSuiteTest::succeed));
      explorer.crashEveryPointOf(new Operation(
          "upgrade that rolls back",
          lab -> lab.kubeletNeverReady.add(lab.versionOf(V2)),
          CrashPointSuiteTest::failAndRollBack));
      explorer.crashEveryPointOf(new Operation(
          "upgrade, persist, commit, prune", lab -> {}, CrashPointSuiteTest::succeedAndPrune));
      explorer.crashEveryRecovery();

      System.out.println(
          "crash points covered: " + explorer.covered() + ", recovered: " + explorer.recovered());
      explorer.steps().forEach(step -> System.out.println(step.line()));
      System.err.println(explorer.summary());
      assertThat(explorer.failures())
          .as("crash points whose recovery broke an invariant")
          .isEmpty();
      assertThat(explorer.recovered()).isEqualTo(explorer.covered());
      assertThat(explorer.covered()).as("crash points covered").isGreaterThan(3600);
    }
  }

  /**
   * The durable disk of a node bootstrapped at V1 with its agent (so its recovery gate) whose
   * owned shared files then drifted, right after a power loss.
   */
  private static HostImage aRunningNodeOfV1WhoseOwnedFilesDrifted() {
    SimNode reference = new SimNode();
    reference.bootstrapWithAgent(V1);
    reference.driftOwnedFiles();
    reference.host.crash();
    return HostImage.capture(reference.host);
  }

  /** The invariants, with the shared files of V1 as booted from {@code base} and of V2 once upgraded to. */
  private static UpgradeInvariants invariantsOfUpgradingFromV1ToV2(HostImage base) {
    Map<String, String> previousFiles = booted(base).sharedFiles();
    SimNode target = booted(base);
    succeed(target);
    return new UpgradeInvariants(
        V1, V2, previousFiles, target.sharedFiles(), target.versionOf(V1), target.versionOf(V2));
  }

  private static SimNode booted(HostImage image) {
    SimNode lab = new SimNode(image.newHost());
    lab.boot();
    lab.publish(V2);
    return lab;
  }

  /** The caller of a successful upgrade: upgrade, persist the applied config, commit. */
  private static void succeed(SimNode lab) {
    Node node = lab.node(V2, Optional.of(V1));
    node.upgrade();
    lab.persistApplied(V2);
    node.commit();
  }

  /** The caller of a successful upgrade that then prunes the previous version. */
  private static void succeedAndPrune(SimNode lab) {
    succeed(lab);
    lab.node(V2).pruneVersions();
  }

  /** The caller of an upgrade that fails and rolls back. */
  private static void failAndRollBack(SimNode lab) {
    try {
      lab.node(V2, Optional.of(V1)).upgrade();
      throw new AssertionError("the upgrade to a kubelet that never gets ready succeeded");
    } catch (UpgradeFailedException expected) {
      // rolled back; the caller keeps the applied config of V1
    }
  }
}
