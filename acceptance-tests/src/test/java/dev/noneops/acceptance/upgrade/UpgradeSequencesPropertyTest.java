package dev.noneops.acceptance.upgrade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.ConfigDigest;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.node.ConfigureResult;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.PruneResult;
import dev.noneops.core.node.UpgradeFailedException;
import dev.noneops.core.node.UpgradeFailedException.RollbackOutcome;
import dev.noneops.core.node.UpgradeRefusedException;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.gate.SimulatedCrash;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;

/**
 * Random lives of a node, as a daemon drives it: reconfigure, upgrade (sometimes to a version
 * whose kubelet never gets ready or whose containerd does not start), persist the applied config
 * and commit, prune, and power losses at random crash points followed by the daemon's start-up
 * recovery. After every step the section 6 invariants hold.
 */
class UpgradeSequencesPropertyTest {
  private static final List<AgentConfig> CONFIGS = List.of(
      SimNode.config("1.31.2", "2.0.4", "blue"),
      SimNode.config("1.31.3", "2.1.1", "green"),
      SimNode.config("1.31.2", "2.0.4", "red"),
      SimNode.config("1.32.0", "2.1.1", "blue"));

  /** What can go wrong with the version an upgrade switches to. */
  enum Fault {
    NONE,
    KUBELET_NEVER_READY,
    CONTAINERD_FAILS
  }

  sealed interface Step {}

  record Configure() implements Step {}

  record Upgrade(int config, Fault fault, boolean force) implements Step {}

  record PersistAndCommit() implements Step {}

  record Recover() implements Step {}

  record Prune() implements Step {}

  /** A power loss at crash point {@code point} of the step that follows. */
  record CrashDuring(int point, Step step) implements Step {}

  @Provide
  Arbitrary<List<Step>> lives() {
    Arbitrary<Step> plain = Arbitraries.oneOf(
        Arbitraries.just(new Configure()),
        Combinators.combine(
                Arbitraries.integers().between(0, CONFIGS.size() - 1),
                Arbitraries.of(Fault.class),
                Arbitraries.of(true, false))
            .as(Upgrade::new),
        Arbitraries.just(new PersistAndCommit()),
        Arbitraries.just(new Recover()),
        Arbitraries.just(new Prune()));
    Arbitrary<Step> crash =
        Combinators.combine(Arbitraries.integers().between(1, 320), plain).as(CrashDuring::new);
    // a crash is most telling during the steps that change the most
    return Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(4, plain), net.jqwik.api.Tuple.of(1, crash))
        .list()
        .ofMinSize(1)
        .ofMaxSize(7);
  }

  @Property(tries = 25, shrinking = ShrinkingMode.OFF)
  void everyLifeKeepsTheInvariants(@ForAll("lives") List<Step> life) {
    Life node = new Life();
    for (Step step : life) {
      node.apply(step);
      node.checkInvariants(step);
    }
  }

  /** The node, the caller's knowledge, and the files each established configuration must have. */
  private static final class Life {
    final SimNode lab = new SimNode();
    final Map<String, Map<String, String>> filesOf = new HashMap<>();
    Optional<AgentConfig> pending = Optional.empty();

    Life() {
      lab.bootstrap(CONFIGS.get(0));
      CONFIGS.forEach(lab::publish);
      established();
    }

    AgentConfig applied() {
      return lab.applied().orElseThrow();
    }

    void established() {
      filesOf.put(ConfigDigest.of(applied()).hex(), lab.sharedFiles());
    }

    void apply(Step step) {
      if (step instanceof CrashDuring c) {
        lab.host.faults().crashAtCrashPoint(c.point());
        try {
          run(c.step());
          lab.host.faults().disarmCrash();
        } catch (SimulatedCrash crash) {
          reboot();
        }
        return;
      }
      run(step);
    }

    /** Power came back: the enabled units start, then the daemon recovers with the applied config on disk. */
    void reboot() {
      lab.host.crash();
      lab.host.systemd().bootEnabledUnits();
      pending = Optional.empty();
      AgentConfig applied = applied();
      lab.node(applied).recoverUpgrade(applied);
      if (!lab.exists(lab.layout.journal())) {
        filesOf.putIfAbsent(ConfigDigest.of(applied).hex(), lab.sharedFiles());
      }
    }

    void run(Step step) {
      AgentConfig applied = applied();
      if (step instanceof Configure) {
        if (lab.exists(lab.layout.journal())) {
          return;
        }
        Node node = lab.node(applied);
        ConfigureResult changes = node.configure();
        node.start(true, changes);
      } else if (step instanceof Upgrade u) {
        upgrade(applied, u);
      } else if (step instanceof PersistAndCommit) {
        if (pending.isPresent()) {
          lab.persistApplied(pending.get());
          lab.node(pending.get()).commit();
          pending = Optional.empty();
          established();
        }
      } else if (step instanceof Recover) {
        // a daemon restart before the caller persisted a successful upgrade: recovery rolls it back
        lab.node(applied).recoverUpgrade(applied);
        pending = Optional.empty();
      } else if (step instanceof Prune) {
        PruneResult report = lab.node(applied).pruneVersions();
        assertThat(report.removed()).doesNotContain(lab.activeVersionRaw().orElseThrow());
      } else {
        throw new IllegalStateException("unknown step " + step);
      }
    }

    void upgrade(AgentConfig applied, Upgrade u) {
      AgentConfig target = CONFIGS.get(u.config());
      String version = lab.versionOf(target);
      lab.kubeletNeverReady.clear();
      lab.host.faults().clear();
      boolean newBinaries = !version.equals(lab.versionOf(applied));
      // a fault of the target's binaries; for a configuration-only upgrade they are the running
      // ones
      if (!newBinaries) {
        // nothing to inject: the previous version's binaries must keep working
      } else if (u.fault() == Fault.KUBELET_NEVER_READY) {
        lab.kubeletNeverReady.add(version);
      } else if (u.fault() == Fault.CONTAINERD_FAILS) {
        lab.failStartWhileActive(HostPaths.CONTAINERD_UNIT, version);
      }
      try {
        lab.node(target, Optional.of(applied)).upgrade(u.force());
        pending = Optional.of(target);
      } catch (UpgradeFailedException e) {
        assertThat(e.outcome()).isIn(RollbackOutcome.ROLLED_BACK, RollbackOutcome.NOTHING_CHANGED);
        assertThat(lab.sharedFiles())
            .as("files after the rollback of " + u)
            .isEqualTo(filesOf.get(ConfigDigest.of(applied).hex()));
      } catch (UpgradeRefusedException e) {
        assertThat(e.reason())
            .isIn(
                UpgradeRefusedException.Reason.UPGRADE_IN_FLIGHT,
                UpgradeRefusedException.Reason.ROLLED_BACK_BEFORE);
      } finally {
        lab.kubeletNeverReady.clear();
        lab.host.faults().clear();
      }
    }

    void checkInvariants(Step step) {
      String when = "after " + step;
      Optional<String> current = lab.activeVersionRaw();
      assertThat(current).as("current " + when).isPresent();
      assertThat(lab.exists(lab.layout.manifest(current.get())))
          .as("current is complete " + when)
          .isTrue();
      assertThat(lab.stackActive()).as("the stack runs " + when).isTrue();
      assertThat(lab.host.tempFiles(Path.of("/"))).as("temp files " + when).isEmpty();
      AgentConfig applied = applied();
      if (lab.exists(lab.layout.journal())) {
        assertThat(pending)
            .as("a journal only while a successful upgrade awaits its commit " + when)
            .isPresent();
        assertThat(current).contains(lab.versionOf(pending.get()));
        assertThat(lab.exists(lab.layout.confsnap()))
            .as("saved configuration kept until commit " + when)
            .isTrue();
      } else {
        assertThat(pending).as("no pending upgrade without a journal " + when).isEmpty();
        assertThat(current)
            .as("the applied config's version runs " + when)
            .contains(lab.versionOf(applied));
        assertThat(lab.exists(lab.layout.confsnap()))
            .as("no saved configuration without a journal " + when)
            .isFalse();
        Map<String, String> expected = filesOf.get(ConfigDigest.of(applied).hex());
        if (expected != null) {
          assertThat(lab.sharedFiles())
              .as("the applied config's shared files " + when)
              .isEqualTo(expected);
        }
      }
    }
  }
}
