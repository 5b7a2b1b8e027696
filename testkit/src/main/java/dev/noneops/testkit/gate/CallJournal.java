package dev.noneops.testkit.gate;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Every port call the simulated host answered, in order, so tests can assert sequences
 * ("containerd restarted before kubelet") and the crash suite can count mutating calls and
 * crash points. Thread-safe.
 */
public final class CallJournal {
  private final List<PortCall> calls = new ArrayList<>();
  private long nextSequence = 1;
  private long crashPoints;

  synchronized PortCall record(String port, String method, List<String> args, boolean mutating) {
    PortCall call = new PortCall(nextSequence++, port, method, args, mutating);
    calls.add(call);
    return call;
  }

  synchronized void countCrashPoint() {
    crashPoints++;
  }

  /** Every call so far, oldest first. */
  public synchronized List<PortCall> calls() {
    return List.copyOf(calls);
  }

  /** The calls matching {@code filter}, oldest first. */
  public synchronized List<PortCall> calls(Predicate<PortCall> filter) {
    return calls.stream().filter(filter).toList();
  }

  /** The calls of one port method ({@code systemd.restart}), oldest first. */
  public List<PortCall> calls(String portDotMethod) {
    return calls(c -> c.name().equals(portDotMethod));
  }

  /** The calls that may have changed the host, oldest first. */
  public List<PortCall> mutatingCalls() {
    return calls(PortCall::mutating);
  }

  public synchronized long mutatingCallCount() {
    return calls.stream().filter(PortCall::mutating).count();
  }

  /**
   * Crash points passed so far: one at the start of every mutating call and one between each two
   * internal steps of a multi-step call (a durable write has five). A crash suite runs an
   * operation once, takes the difference of this count, then crashes at each point in turn.
   */
  public synchronized long crashPointCount() {
    return crashPoints;
  }

  /** The journal position of the first call matching {@code filter}; -1 when there is none. */
  public synchronized long indexOf(Predicate<PortCall> filter) {
    return calls.stream()
        .filter(filter)
        .mapToLong(PortCall::sequence)
        .findFirst()
        .orElse(-1);
  }

  /** Forgets the recorded calls (sequence numbers and the crash point count keep running). */
  public synchronized void clear() {
    calls.clear();
  }

  @Override
  public synchronized String toString() {
    StringBuilder out = new StringBuilder();
    for (PortCall c : calls) {
      out.append(c.sequence()).append(' ').append(c).append('\n');
    }
    return out.toString();
  }
}
