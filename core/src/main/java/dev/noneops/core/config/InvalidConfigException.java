package dev.noneops.core.config;

import dev.noneops.core.NoneopsException;
import java.util.List;
import java.util.Objects;

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

  /**
   * One thing wrong with a configuration.
   *
   * @param path where: a JSON path such as {@code Kubelet.Auth.ExecCredential.command},
   *     {@code Kubelet.Labels["example.com/role"]} or {@code Kubelet.RegisterWithTaints[2]};
   *     {@code $} for the document itself and {@code host.arch} for the host's architecture
   * @param reason what is wrong, in words an operator can act on
   */
  public record ConfigViolation(String path, String reason) {
    public ConfigViolation {
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(reason, "reason");
    }

    @Override
    public String toString() {
      return path + ": " + reason;
    }
  }
}
