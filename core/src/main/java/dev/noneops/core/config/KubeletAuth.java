package dev.noneops.core.config;

import java.util.List;
import java.util.Objects;

/** How kubelet authenticates to the API server: exactly one of a bootstrap token or an exec plugin. */
public sealed interface KubeletAuth {

  /** A TLS-bootstrap token {@code <id>.<secret>}. */
  record BootstrapToken(String token) implements KubeletAuth {
    public BootstrapToken {
      Objects.requireNonNull(token, "token");
    }

    @Override
    public String toString() {
      return "BootstrapToken[<redacted>]";
    }
  }

  /** A client-go exec credential plugin. */
  record ExecCredential(
      String command,
      List<String> args,
      List<EnvVar> env,
      String apiVersion,
      String installHint,
      boolean provideClusterInfo)
      implements KubeletAuth {
    public ExecCredential {
      Objects.requireNonNull(command, "command");
      args = List.copyOf(args);
      env = List.copyOf(env);
      Objects.requireNonNull(apiVersion, "apiVersion");
      Objects.requireNonNull(installHint, "installHint");
    }
  }

  /** One environment variable of an exec credential plugin. */
  record EnvVar(String name, String value) {
    public EnvVar {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(value, "value");
    }
  }
}
