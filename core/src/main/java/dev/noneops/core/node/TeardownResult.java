package dev.noneops.core.node;

import dev.noneops.core.node.internal.teardown.TeardownLog;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a teardown did: everything it removed (or stopped, killed, unmounted), and everything it
 * kept with the reason. Foreign things a teardown deliberately left alone are listed as kept too,
 * so an operator sees that they were recognised, not overlooked.
 *
 * @param removed what the teardown removed, stopped, killed or unmounted, in order
 * @param kept what it left in place, each with why
 */
public record TeardownResult(List<Removed> removed, List<Kept> kept) {

  /** One thing removed, stopped, killed or unmounted. */
  public record Removed(TeardownAction action, String subject, String detail) {
    public Removed {
      Objects.requireNonNull(action, "action");
      Objects.requireNonNull(subject, "subject");
      Objects.requireNonNull(detail, "detail");
    }

    @Override
    public String toString() {
      return action + " " + subject + (detail.isEmpty() ? "" : " (" + detail + ")");
    }
  }

  /** One thing kept, and why. */
  public record Kept(KeepReason reason, String subject, String detail) {
    public Kept {
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(subject, "subject");
      Objects.requireNonNull(detail, "detail");
    }

    @Override
    public String toString() {
      return "KEPT " + subject + ": " + reason + (detail.isEmpty() ? "" : " (" + detail + ")");
    }
  }

  public TeardownResult {
    removed = List.copyOf(removed);
    kept = List.copyOf(kept);
  }

  /** The report of what the teardown's steps logged. */
  static TeardownResult of(TeardownLog log) {
    return new TeardownResult(
        log.removed().stream()
            .map(r -> new Removed(r.action(), r.subject(), r.detail()))
            .toList(),
        log.kept().stream()
            .map(k -> new Kept(k.reason(), k.subject(), k.detail()))
            .toList());
  }

  /** A report of nothing done and nothing kept. */
  public static TeardownResult empty() {
    return new TeardownResult(List.of(), List.of());
  }

  /**
   * Whether nothing of this node was left behind: no kept item blocks completion. Foreign things
   * that were kept on purpose do not count.
   */
  public boolean complete() {
    return kept.stream().noneMatch(k -> k.reason().blocksCompletion());
  }

  /** The kept items that block completion. */
  public List<Kept> blocking() {
    return kept.stream().filter(k -> k.reason().blocksCompletion()).toList();
  }

  /** The kept items with {@code reason}. */
  public List<Kept> kept(KeepReason reason) {
    return kept.stream().filter(k -> k.reason() == reason).toList();
  }

  /** The removed items with {@code action}. */
  public List<Removed> removed(TeardownAction action) {
    return removed.stream().filter(r -> r.action() == action).toList();
  }

  /** This report followed by {@code next}, as for the steps of one reset run in order. */
  public TeardownResult plus(TeardownResult next) {
    List<Removed> r = new ArrayList<>(removed);
    r.addAll(next.removed);
    List<Kept> k = new ArrayList<>(kept);
    k.addAll(next.kept);
    return new TeardownResult(r, k);
  }

  /** One line per item: removed items first, then kept ones. */
  @Override
  public String toString() {
    List<String> lines = new ArrayList<>();
    removed.forEach(r -> lines.add(r.toString()));
    kept.forEach(k -> lines.add(k.toString()));
    return lines.isEmpty() ? "nothing to do" : String.join("\n", lines);
  }
}
