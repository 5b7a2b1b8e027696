package dev.noneops.acceptance.upgrade;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.ConfigDigest;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.layout.VersionNames;
import dev.noneops.core.node.Params;
import dev.noneops.core.node.RecoveryResult;
import dev.noneops.core.node.VerifyReport;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.systemd.ActiveState;
import dev.noneops.testkit.fixtures.node.BootLog;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The upgrade's invariants (docs/concepts/safety.md) for an upgrade from {@code previous} to {@code
 * target}, checked on a lab: each check returns the violations it found (empty when it holds), so a
 * suite can count and report every crash point instead of stopping at the first. The shared files
 * are compared without the agent's state ({@link #withoutAgentState}), which records each run of
 * the recovery gate.
 */
final class UpgradeInvariants {
  final AgentConfig previous;
  final AgentConfig target;
  final Map<String, String> previousFiles;
  final Map<String, String> targetFiles;
  final String previousVersion;
  final String targetVersion;

  UpgradeInvariants(
      AgentConfig previous,
      AgentConfig target,
      Map<String, String> previousFiles,
      Map<String, String> targetFiles,
      String previousVersion,
      String targetVersion) {
    this.previous = previous;
    this.target = target;
    this.previousFiles = withoutAgentState(previousFiles);
    this.targetFiles = withoutAgentState(targetFiles);
    this.previousVersion = previousVersion;
    this.targetVersion = targetVersion;
  }

  /** At any instant (a crash included): {@code current} names a complete, verified version, the previous or the target. */
  List<String> currentIsValid(SimNode lab) {
    List<String> out = new ArrayList<>();
    Optional<String> current = lab.activeVersionRaw();
    if (current.isEmpty()) {
      out.add("current names no version");
      return out;
    }
    if (!current.get().equals(previousVersion) && !current.get().equals(targetVersion)) {
      out.add("current names " + current.get() + ", neither " + previousVersion + " nor "
          + targetVersion);
    }
    VerifyReport.Verdict v = lab.node(Params.builder(lab.host.ports()))
        .inspect()
        .verify(List.of(current.get()))
        .versions()
        .get(0);
    if (!v.verified()) {
      out.add("current names an unverified version: " + v.state() + " " + v.problems());
    }
    return out;
  }

  /**
   * What the recovery gate acts on is on disk: an upgrade's journal or saved configuration, a
   * teardown's note, a
   * version's removal tombstone, a staging directory with something in it, or a temp entry of an
   * interrupted write in the layout (read before a boot, independently of the gate's unit).
   */
  static boolean somethingInFlight(SimNode lab) {
    synchronized (lab.host.monitor()) {
      try {
        HostFiles files = lab.host.ports().files();
        if (lab.exists(lab.layout.journal())
            || lab.exists(lab.layout.confsnap())
            || lab.exists(lab.layout.teardownMarker())) {
          return true;
        }
        if (lab.exists(lab.layout.staging())
            && !files.list(lab.layout.staging()).isEmpty()) {
          return true;
        }
        if (!lab.exists(lab.layout.root())) {
          return false;
        }
        for (String name : files.list(lab.layout.root())) {
          if (name.startsWith(".removing-") || name.startsWith(HostFiles.TEMP_PREFIX)) {
            return true;
          }
        }
        return false;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /**
   * A boot ({@code boot}, what it did to units) went through the recovery gate when something was
   * in flight ({@code inFlight}, read before the boot): the gate's start job ended, successfully,
   * before any of the stack's units was started. With nothing in flight systemd's conditions skip
   * the gate (no JVM), and the stack starts.
   */
  List<String> bootedThroughTheGate(SimNode lab, BootLog boot, boolean inFlight) {
    List<String> out = new ArrayList<>();
    String gate = HostPaths.RECOVERY_GATE_UNIT;
    Optional<Integer> gateEnded = boot.startEnded(gate);
    if (gateEnded.isEmpty()) {
      out.add("the boot did not run the recovery gate: " + boot);
      return out;
    }
    if (skippedTheGate(boot)) {
      if (inFlight) {
        out.add("the boot skipped the recovery gate with something in flight: " + boot);
      }
    } else if (lab.host.systemd().peek(gate).active() != ActiveState.ACTIVE) {
      out.add("the recovery gate is " + lab.host.systemd().peek(gate).active() + ": "
          + lab.gateJournal());
    } else if (!inFlight) {
      out.add("the boot ran the recovery gate with nothing in flight: " + boot);
    }
    Optional<Integer> stackFirst = boot.firstEventOf(SimNode.STACK);
    if (stackFirst.isPresent() && stackFirst.get() < gateEnded.get()) {
      out.add("a unit of the stack was started before the recovery gate had finished: " + boot);
    }
    return out;
  }

  /** Whether systemd's conditions skipped the gate in {@code boot}. */
  static boolean skippedTheGate(BootLog boot) {
    return boot.of(HostPaths.RECOVERY_GATE_UNIT)
        .contains(HostPaths.RECOVERY_GATE_UNIT + " condition-failed");
  }

  /**
   * After recovery (and commit): a consistent pair running, the stack on the pair's version,
   * nothing of the upgrade's state left, and a second recovery (the daemon's at its start) that
   * changes nothing.
   */
  List<String> recovered(SimNode lab) {
    List<String> out = new ArrayList<>(currentIsValid(lab));
    Optional<String> current = lab.activeVersionRaw();
    Optional<AgentConfig> applied = lab.applied();
    if (applied.isEmpty()) {
      out.add("no applied config");
      return out;
    }
    String appliedDigest = ConfigDigest.of(applied.get()).hex();
    String expected =
        appliedDigest.equals(ConfigDigest.of(target).hex()) ? targetVersion : previousVersion;
    for (String unit : SimNode.STACK) {
      Optional<String> running = lab.runningVersion(unit);
      if (!running.equals(Optional.of(expected))) {
        out.add(unit + " runs " + running.orElse("no version of the layout") + ", not " + expected);
      }
    }
    Map<String, String> files = withoutAgentState(lab.sharedFiles());
    if (current.equals(Optional.of(targetVersion))
        && appliedDigest.equals(ConfigDigest.of(target).hex())) {
      out.addAll(diff("the target's shared files", targetFiles, files));
    } else if (current.equals(Optional.of(previousVersion))
        && appliedDigest.equals(ConfigDigest.of(previous).hex())) {
      out.addAll(diff("the shared files from before the upgrade", previousFiles, files));
    } else {
      out.add(
          "inconsistent pair: current " + current.orElse("none") + " with the applied config of "
              + (appliedDigest.equals(ConfigDigest.of(target).hex())
                  ? "the target"
                  : "the previous configuration"));
    }
    if (lab.exists(lab.layout.journal())) {
      out.add("the upgrade journal is left behind");
    }
    if (lab.exists(lab.layout.confsnap())) {
      out.add("the saved configuration is left behind");
    }
    if (lab.exists(lab.layout.staging())) {
      out.add("the staging directory is left behind");
    }
    out.addAll(onlyCompleteVersions(lab));
    List<String> temps = lab.host.tempFiles(java.nio.file.Path.of("/"));
    if (!temps.isEmpty()) {
      out.add("temp files left behind: " + temps);
    }
    if (!lab.stackActive()) {
      out.add("the stack is not running: " + lab.host.systemd().activeUnits());
    }
    FileTreeSnapshot before = lab.host.snapshot();
    RecoveryResult again = lab.node(applied.get()).recoverUpgrade(applied.get());
    if (again.outcome() != RecoveryResult.Outcome.NOTHING_TO_DO) {
      out.add("a second recovery did something: " + again.outcome());
    }
    List<String> changed = lab.host.snapshot().diff(before);
    if (!changed.isEmpty()) {
      out.add("a second recovery changed the tree: " + changed);
    }
    return out;
  }

  /** {@code files} without the agent's state, which records the recovery gate's runs. */
  static Map<String, String> withoutAgentState(Map<String, String> files) {
    Map<String, String> out = new TreeMap<>(files);
    out.remove(HostPaths.realHost().agentState().toString());
    return out;
  }

  /** Every directory of the layout (its bookkeeping aside) is a version with its manifest: none is half installed or half removed. */
  private static List<String> onlyCompleteVersions(SimNode lab) {
    List<String> out = new ArrayList<>();
    synchronized (lab.host.monitor()) {
      try {
        for (String name : lab.host.fs().list(lab.layout.root())) {
          java.nio.file.Path dir = lab.layout.root().resolve(name);
          if (name.equals(Layout.CONFSNAP)
              || name.equals(Layout.STAGING)
              || !lab.host.fs().lstat(dir).orElseThrow().isDirectory()) {
            continue;
          }
          if (!VersionNames.isSafe(name)) {
            out.add("the layout holds a directory that is no version: " + dir);
          } else if (lab.host.fs().lstat(lab.layout.manifest(name)).isEmpty()) {
            out.add("version " + name + " is left incomplete (no manifest) with "
                + lab.host.fs().list(dir) + " in it");
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return out;
  }

  private static List<String> diff(
      String what, Map<String, String> expected, Map<String, String> actual) {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, String> e : expected.entrySet()) {
      String now = actual.get(e.getKey());
      if (now == null) {
        out.add(what + ": " + e.getKey() + " is missing");
      } else if (!now.equals(e.getValue())) {
        out.add(what + ": " + e.getKey() + " differs: " + now + " instead of " + e.getValue());
      }
    }
    for (String path : actual.keySet()) {
      if (!expected.containsKey(path)) {
        out.add(what + ": " + path + " should not exist");
      }
    }
    return out;
  }
}
