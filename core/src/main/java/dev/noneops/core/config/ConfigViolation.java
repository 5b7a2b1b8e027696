package dev.noneops.core.config;

import java.util.Objects;

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
