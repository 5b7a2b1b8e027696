package dev.noneops.core.config;

import dev.noneops.core.task.NoneopsException;
import java.util.List;

/**
 * A configuration was rejected. Carries every violation found, not just the first, so an operator
 * fixes a file in one round; the message lists them all, one per line. Thrown before anything on
 * the host changes.
 */
public class InvalidConfigException extends NoneopsException {
  private static final long serialVersionUID = 1L;

  private final transient List<ConfigViolation> violations;

  public InvalidConfigException(List<ConfigViolation> violations) {
    super(message(violations));
    if (violations.isEmpty()) {
      throw new IllegalArgumentException("an invalid configuration has at least one violation");
    }
    this.violations = List.copyOf(violations);
  }

  public List<ConfigViolation> violations() {
    return violations;
  }

  private static String message(List<ConfigViolation> violations) {
    StringBuilder sb = new StringBuilder("invalid agent configuration (")
        .append(violations.size())
        .append(violations.size() == 1 ? " violation)" : " violations)");
    for (ConfigViolation v : violations) {
      sb.append("\n  - ").append(v);
    }
    return sb.toString();
  }
}
