package dev.noneops.testkit.gate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The single entrance of every simulated port call: serialises calls (the simulated host is one
 * consistent machine), records them in the {@link CallJournal}, applies {@link Faults}, counts
 * crash points and, once a crash has fired, refuses every further call with
 * {@link SimulatedCrash} until the host reboots.
 */
public final class PortGate {
  private final Object monitor = new Object();
  private final CallJournal journal = new CallJournal();
  private final Faults faults = new Faults(journal);
  private PortCall current;
  private boolean halted;

  /** An action of a port that may fail with an I/O error. */
  @FunctionalInterface
  public interface IoAction<T> {
    T run() throws IOException;
  }

  public CallJournal journal() {
    return journal;
  }

  public Faults faults() {
    return faults;
  }

  /** The lock that every call holds while it runs; simulation helpers take it too. */
  public Object monitor() {
    return monitor;
  }

  /** Whether a crash fired and the host waits for its reboot. */
  public boolean halted() {
    synchronized (monitor) {
      return halted;
    }
  }

  /** Clears the halted state; called by the host's reboot. */
  public void reboot() {
    synchronized (monitor) {
      halted = false;
      current = null;
    }
  }

  /** Runs one port call that may throw I/O errors. */
  public <T> T call(
      String port, String method, boolean mutating, List<String> args, IoAction<T> action)
      throws IOException {
    synchronized (monitor) {
      PortCall outer = current;
      PortCall call = enter(port, method, mutating, args);
      try {
        current = call;
        Optional<Throwable> failure = faults.failureFor(call, Optional.empty());
        if (failure.isPresent()) {
          throwChecked(failure.get());
        }
        return action.run();
      } finally {
        current = outer;
      }
    }
  }

  /** Runs one port call of a port whose methods declare no checked exception. */
  public <T> T callUnchecked(
      String port, String method, boolean mutating, List<String> args, IoAction<T> action) {
    try {
      return call(port, method, mutating, args, action);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "an I/O failure cannot be raised by " + port + "." + method
              + ", which declares none; inject a runtime failure instead",
          e);
    }
  }

  /**
   * An internal step boundary of the current mutating call (e.g. between fsync and rename): a
   * crash point, and a place where step-specific fault rules fire.
   */
  public void step(String stepName) throws IOException {
    step(stepName, true);
  }

  /**
   * The first internal step of the current call: step-specific fault rules fire here, but it is
   * no crash point of its own (the start of the call already is one).
   */
  public void firstStep(String stepName) throws IOException {
    step(stepName, false);
  }

  private void step(String stepName, boolean crashPoint) throws IOException {
    synchronized (monitor) {
      PortCall call = current;
      if (call == null || !call.mutating()) {
        return;
      }
      if (crashPoint) {
        crashPoint(call, " at step '" + stepName + "'", false);
      }
      Optional<Throwable> failure = faults.failureFor(call, Optional.of(stepName));
      if (failure.isPresent()) {
        throwChecked(failure.get());
      }
    }
  }

  /** Summarises arguments for the journal. */
  public static List<String> args(Object... args) {
    return Arrays.stream(args).map(String::valueOf).toList();
  }

  private PortCall enter(String port, String method, boolean mutating, List<String> args) {
    if (halted) {
      throw new SimulatedCrash(
          "the simulated host crashed; call SimulatedHost.crash() before " + port + "." + method,
          0);
    }
    PortCall call = journal.record(port, method, args, mutating);
    if (mutating) {
      crashPoint(call, " as it started", true);
    }
    return call;
  }

  private void crashPoint(PortCall call, String where, boolean startOfCall) {
    OptionalLong fired = faults.passCrashPoint(startOfCall);
    if (fired.isPresent()) {
      halted = true;
      throw new SimulatedCrash(
          "simulated crash at crash point " + fired.getAsLong() + ": " + call + where,
          fired.getAsLong());
    }
  }

  private static void throwChecked(Throwable t) throws IOException {
    if (t instanceof IOException io) {
      throw io;
    }
    if (t instanceof RuntimeException re) {
      throw re;
    }
    if (t instanceof Error err) {
      throw err;
    }
    throw new IllegalStateException(
        "a fault must be an IOException, a RuntimeException or an Error", t);
  }
}
