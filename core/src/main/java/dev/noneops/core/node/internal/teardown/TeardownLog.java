package dev.noneops.core.node.internal.teardown;

import dev.noneops.core.node.KeepReason;
import dev.noneops.core.node.TeardownAction;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a teardown step did, in order: each thing it removed (or stopped, killed, unmounted) and
 * each thing it kept, with why. The node reports it as its {@code TeardownLog}.
 *
 * @param removed what was removed, in order
 * @param kept what was left in place, each with its reason
 */
public record TeardownLog(List<Removal> removed, List<Keep> kept) {
  /** One removal: what was done, to what, and any detail. */
  public record Removal(TeardownAction action, String subject, String detail) {
    public Removal {
      Objects.requireNonNull(action, "action");
      Objects.requireNonNull(subject, "subject");
      Objects.requireNonNull(detail, "detail");
    }

    @Override
    public String toString() {
      return action + " " + subject + (detail.isEmpty() ? "" : " (" + detail + ")");
    }
  }

  /** One thing kept: why, what, and any detail. */
  public record Keep(KeepReason reason, String subject, String detail) {
    public Keep {
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(subject, "subject");
      Objects.requireNonNull(detail, "detail");
    }

    @Override
    public String toString() {
      return "KEPT " + subject + ": " + reason + (detail.isEmpty() ? "" : " (" + detail + ")");
    }
  }

  public TeardownLog {
    removed = List.copyOf(removed);
    kept = List.copyOf(kept);
  }

  public static TeardownLog empty() {
    return new TeardownLog(List.of(), List.of());
  }

  /** Whether nothing kept stops the teardown from being complete. */
  public boolean complete() {
    return kept.stream().noneMatch(k -> k.reason().blocksCompletion());
  }

  /** What was kept for a reason that leaves the teardown incomplete. */
  public List<Keep> blocking() {
    return kept.stream().filter(k -> k.reason().blocksCompletion()).toList();
  }

  public List<Keep> kept(KeepReason reason) {
    return kept.stream().filter(k -> k.reason() == reason).toList();
  }

  public List<Removal> removed(TeardownAction action) {
    return removed.stream().filter(r -> r.action() == action).toList();
  }

  /** This log followed by {@code next}'s. */
  public TeardownLog plus(TeardownLog next) {
    List<Removal> r = new ArrayList<>(removed);
    r.addAll(next.removed);
    List<Keep> k = new ArrayList<>(kept);
    k.addAll(next.kept);
    return new TeardownLog(r, k);
  }
}
