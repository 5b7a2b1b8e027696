package dev.noneops.daemon;

import dev.noneops.core.NoneopsException;
import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.AppliedConfigStore;
import dev.noneops.core.config.WritableByOthersException;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.NodeBusyException;
import dev.noneops.core.node.RecoveryMode;
import dev.noneops.core.node.RecoveryResult;
import dev.noneops.core.node.UpgradeInProgressException;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.files.HostLock;
import dev.noneops.ports.systemd.ActiveState;
import dev.noneops.ports.time.HostClock;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The recovery gate's work ({@code noneops recover --at-boot}, run by the oneshot
 * {@value HostPaths#RECOVERY_GATE_UNIT} before LocalDNS, containerd and kubelet): makes the node
 * consistent with the applied configuration — an interrupted upgrade is committed when it had
 * finished and been recorded, rolled back otherwise — without starting anything; systemd starts
 * the stack when the gate has finished.
 *
 * <p>What it decides:
 *
 * <ul>
 *   <li>no node on the host, or an operation holds the node lock or owns an upgrade in progress
 *       (the gate was pulled in by a unit started on a live node, not at boot): it passes and
 *       changes nothing;
 *   <li>nothing in flight: it passes (after removing what interrupted writes left), even when the
 *       applied configuration is missing or unreadable — the node on disk is consistent — and
 *       says so;
 *   <li>an upgrade in flight and the applied configuration missing or unreadable: it fails with
 *       {@link RecoveryGateException}, and the stack stays down rather than run a half-switched
 *       node;
 *   <li>recovery itself failing: {@link RecoveryGateException} as well;
 *   <li>run on a java a user or group other than root can change ({@link
 *       #refuse(WritableByOthersException)}): no recovery work; it passes with nothing in flight,
 *       or on a live node (another process holds the node lock), and keeps the stack down with an
 *       upgrade in flight at boot.
 * </ul>
 *
 * Each run is recorded as {@link AgentState#bootRecovery()}.
 */
public final class RecoveryGate {
  private final HostFiles files;
  private final Layout layout;
  private final HostPaths paths;
  private final HostClock clock;
  private final Function<AgentConfig, Node> nodeFor;

  /**
   * @param nodeFor the node bound to the applied configuration (as its configuration and as the
   *     previous one)
   */
  public RecoveryGate(
      HostFiles files,
      Layout layout,
      HostPaths paths,
      HostClock clock,
      Function<AgentConfig, Node> nodeFor) {
    this.files = Objects.requireNonNull(files, "files");
    this.layout = Objects.requireNonNull(layout, "layout");
    this.paths = Objects.requireNonNull(paths, "paths");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.nodeFor = Objects.requireNonNull(nodeFor, "nodeFor");
  }

  /** What the gate did. */
  public record Result(Outcome outcome, String line) {
    public Result {
      Objects.requireNonNull(outcome, "outcome");
      Objects.requireNonNull(line, "line");
    }
  }

  /** How the gate ended (every one lets the stack start). */
  public enum Outcome {
    NO_NODE,
    LIVE_NODE,
    NOTHING_TO_DO,
    COMMITTED,
    ROLLED_BACK,
    ROLLBACK_FINISHED,
    /**
     * The java the gate runs on is one a user or group other than root can change: it did no
     * recovery work, and nothing was in flight.
     */
    REFUSED
  }

  /**
   * Runs the gate.
   *
   * @throws RecoveryGateException when the node cannot be made consistent; the stack stays down
   */
  public Result run() {
    try {
      Result result = decide();
      record(result.outcome().name(), result.line());
      return result;
    } catch (RecoveryGateException e) {
      record("FAILED", e.getMessage());
      throw e;
    }
  }

  /**
   * Runs the gate on a java that a user or group other than root can change ({@code untrusted}):
   * it does no recovery work, not even a clean-up. With nothing in flight the node on disk is
   * consistent, so the gate passes and the stack starts, its line saying why nothing was
   * recovered; with an upgrade in flight the stack stays down rather than run a half-switched node.
   *
   * @throws RecoveryGateException when an upgrade is in flight; the stack stays down
   */
  public Result refuse(WritableByOthersException untrusted) {
    Objects.requireNonNull(untrusted, "untrusted");
    if (!exists(layout.root())) {
      return new Result(Outcome.NO_NODE, "no node on this host; nothing to recover");
    }
    String refused = "refused to recover: " + untrusted.getMessage();
    if (exists(layout.journal()) && lockHeldByAnother()) {
      Result live = new Result(
          Outcome.LIVE_NODE,
          "the node is live, not booting: an operation holds the node lock with its upgrade in"
              + " flight; nothing to recover here (" + refused + ")");
      record(live.outcome().name(), live.line());
      return live;
    }
    if (exists(layout.journal())) {
      RecoveryGateException e = new RecoveryGateException(
          "noneops recovery gate: " + refused + "; an upgrade is in flight ("
              + layout.journal() + "), so the node's stack stays down. Make "
              + untrusted.entry() + " root's alone and run `noneops recover`, or remove the node"
              + " with `noneops reset`",
          untrusted);
      record("FAILED", e.getMessage());
      throw e;
    }
    Result result = new Result(
        Outcome.REFUSED,
        refused + "; nothing in flight, so the stack starts, and the agent does not run until"
            + " root alone can change " + untrusted.entry());
    record(result.outcome().name(), result.line());
    return result;
  }

  private Result decide() {
    if (!exists(layout.root())) {
      return new Result(Outcome.NO_NODE, "no node on this host; nothing to recover");
    }
    boolean inFlight = exists(layout.journal());
    Optional<AgentConfig> applied;
    try {
      applied = new AppliedConfigStore(files, paths).read();
    } catch (IOException | RuntimeException e) {
      if (inFlight) {
        throw stays(
            "the applied configuration at " + paths.appliedConfig() + " is unreadable ("
                + message(e) + ")",
            e);
      }
      return new Result(
          Outcome.NOTHING_TO_DO,
          "no operation in flight; the applied configuration at " + paths.appliedConfig()
              + " is unreadable (" + message(e) + "), so the agent cannot follow changes until "
              + "the configuration is applied again");
    }
    if (applied.isEmpty()) {
      if (inFlight) {
        throw stays("the applied configuration at " + paths.appliedConfig() + " is missing", null);
      }
      return new Result(
          Outcome.NOTHING_TO_DO, "no operation in flight and no applied configuration");
    }
    try {
      RecoveryResult r =
          nodeFor.apply(applied.get()).recoverUpgrade(applied.get(), RecoveryMode.AT_BOOT);
      return new Result(Outcome.valueOf(r.outcome().name()), describe(r));
    } catch (UpgradeInProgressException inProgress) {
      return new Result(
          Outcome.LIVE_NODE,
          "the node is live, not booting: " + inProgress.operatorMessage()
              + "; nothing to recover here");
    } catch (NodeBusyException busy) {
      return new Result(
          Outcome.LIVE_NODE,
          "an operation holds the node lock (" + busy.operation() + "): the node is live, not "
              + "booting; nothing to recover here");
    } catch (NoneopsException e) {
      throw stays("recovery failed: " + e.operatorMessage(), e);
    } catch (RuntimeException e) {
      throw stays("recovery failed: " + message(e), e);
    }
  }

  private static String describe(RecoveryResult r) {
    String target = r.upgrade().map(u -> u.targetVersion()).orElse("?");
    String previous = r.upgrade().map(u -> u.previousVersion()).orElse("?");
    String line = switch (r.outcome()) {
      case NOTHING_TO_DO -> "no operation in flight; the node is consistent";
      case COMMITTED -> "the interrupted upgrade to " + target + " had finished: committed";
      case ROLLED_BACK ->
        "the interrupted upgrade to " + target + " was rolled back to " + previous;
      case ROLLBACK_FINISHED -> "the rollback to " + previous + " was already done: cleaned up";
    };
    if (!r.staleRemoved().isEmpty()) {
      line += "; removed " + r.staleRemoved().size() + " left by interrupted writes";
    }
    return line;
  }

  private RecoveryGateException stays(String what, Throwable cause) {
    return new RecoveryGateException(
        "noneops recovery gate: " + what + "; the node's stack stays down. Restore "
            + paths.appliedConfig() + " and run `noneops recover`, or remove the node with "
            + "`noneops reset`",
        cause);
  }

  private void record(String outcome, String line) {
    AgentStateStore store = new AgentStateStore(files, paths);
    try {
      if (!exists(layout.root())) {
        return;
      }
      store.write(store
          .read()
          .withBootRecovery(new AgentState.Event(clock.now(), "boot-recovery", outcome, line)));
    } catch (IOException | RuntimeException e) {
      // the state informs; the gate's outcome is its exit status and its journal line
    }
  }

  /**
   * Whether another process holds the node lock: an operation runs, so the gate was pulled in by a
   * unit that operation started on a live node, not at boot.
   */
  private boolean lockHeldByAnother() {
    try {
      Optional<HostLock> lock = files.tryLock(layout.lock());
      lock.ifPresent(HostLock::close);
      return lock.isEmpty();
    } catch (IOException e) {
      return false;
    }
  }

  private boolean exists(Path path) {
    try {
      return files.exists(path);
    } catch (IOException e) {
      throw stays("cannot read " + path + " (" + e.getMessage() + ")", e);
    }
  }

  private static String message(Throwable e) {
    return e instanceof NoneopsException n ? n.operatorMessage() : String.valueOf(e.getMessage());
  }

  /**
   * Whether a recovery gate unit in {@code state} ran in this boot: a gate that ran stays active
   * (exited) or failed until the next boot; an inactive one was skipped by systemd's conditions,
   * nothing being in flight, or is not installed, and a boot recovery recorded is an earlier
   * boot's.
   */
  public static boolean ranThisBoot(ActiveState state) {
    return state != ActiveState.INACTIVE;
  }

  /**
   * The recovery gate could not make the node consistent at boot: the stack's units, which require
   * the gate, stay down. The message is the one line the gate's journal carries: what is wrong,
   * that the stack stays down, and what to run.
   */
  public static final class RecoveryGateException extends NoneopsException {
    private static final long serialVersionUID = 1L;

    RecoveryGateException(String message, Throwable cause) {
      super(message, cause);
    }

    @Override
    public String operatorMessage() {
      return getMessage();
    }
  }
}
