package dev.noneops.kubernetes;

import dev.noneops.ports.machine.MachineResourceException;
import dev.noneops.ports.machine.MachineResourceException.Kind;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;

/** Turns the client's unchecked errors into the port's typed refusals, by HTTP status. */
final class MachineFailures {
  private static final int UNPROCESSABLE_ENTITY = 422;
  private static final int GONE = 410;

  private MachineFailures() {}

  static MachineResourceException of(String operation, String machine, RuntimeException e) {
    if (e instanceof KubernetesClientException k) {
      return new MachineResourceException(
          kindOf(k), machine, operation + " machines/" + machine + ": " + k.getMessage(), k);
    }
    return new MachineResourceException(
        Kind.OTHER, machine, operation + " machines/" + machine + ": " + e, e);
  }

  static Kind kindOf(KubernetesClientException e) {
    switch (e.getCode()) {
      case HttpURLConnection.HTTP_UNAUTHORIZED:
      case HttpURLConnection.HTTP_FORBIDDEN:
        return Kind.FORBIDDEN;
      case HttpURLConnection.HTTP_NOT_FOUND:
      case GONE:
        return Kind.NOT_FOUND;
      case HttpURLConnection.HTTP_CONFLICT:
        return Kind.CONFLICT;
      case HttpURLConnection.HTTP_BAD_REQUEST:
      case UNPROCESSABLE_ENTITY:
        return Kind.INVALID;
      case 0: // no answer at all: the connection failed, broke or timed out
        return Kind.UNREACHABLE;
      default:
        return e.getCode() >= HttpURLConnection.HTTP_INTERNAL_ERROR ? Kind.UNREACHABLE : Kind.OTHER;
    }
  }

  static boolean isConflict(RuntimeException e) {
    return e instanceof KubernetesClientException k
        && k.getCode() == HttpURLConnection.HTTP_CONFLICT;
  }

  static boolean isNotFound(RuntimeException e) {
    return e instanceof KubernetesClientException k
        && k.getCode() == HttpURLConnection.HTTP_NOT_FOUND;
  }
}
