package dev.noneops.core.node;

import dev.noneops.core.node.internal.preflight.CheckOutcome;
import dev.noneops.core.node.internal.preflight.Preflight;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@link Node#preflight(boolean)} found: every check in the order run, each with its
 * verdict, what it saw and, unless it passed, what to do about it.
 */
public record PreflightReport(List<Check> checks) {
  /** How a check came out. */
  public enum Verdict {
    /** Nothing to do. */
    OK,
    /** Bootstrap goes on, but the operator should know (or act). */
    WARN,
    /** Bootstrap would not work, and stops before it changes anything. */
    FAIL
  }

  /**
   * One check's outcome.
   *
   * @param name the check, e.g. {@code cgroup-v2}
   * @param detail what it found
   * @param remedy what to do about a warning or failure; empty when it passed
   */
  public record Check(String name, Verdict verdict, String detail, String remedy) {
    public Check {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(verdict, "verdict");
      Objects.requireNonNull(detail, "detail");
      Objects.requireNonNull(remedy, "remedy");
    }
  }

  /**
   * The checks that need a configuration, which {@link Node#preflightWithoutConfiguration} skips:
   * LocalDNS's port, the shared files, the artifact sources and the agent's files.
   */
  public static final List<String> NEED_A_CONFIGURATION = Preflight.CONFIGURATION_CHECKS;

  public PreflightReport {
    checks = List.copyOf(checks);
  }

  /** The report of the checks' {@code outcomes}, in the order run. */
  static PreflightReport of(List<CheckOutcome> outcomes) {
    return new PreflightReport(outcomes.stream()
        .map(o -> new Check(o.name(), Verdict.valueOf(o.severity().name()), o.detail(), o.remedy()))
        .toList());
  }

  /** Whether no check failed (warnings pass). */
  public boolean passed() {
    return failures().isEmpty();
  }

  public List<Check> failures() {
    return checks.stream().filter(c -> c.verdict() == Verdict.FAIL).toList();
  }

  public List<Check> warnings() {
    return checks.stream().filter(c -> c.verdict() == Verdict.WARN).toList();
  }

  /** The check named {@code name}. */
  public Optional<Check> check(String name) {
    return checks.stream().filter(c -> c.name().equals(name)).findFirst();
  }
}
