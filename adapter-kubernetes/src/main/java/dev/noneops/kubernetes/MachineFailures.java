package dev.noneops.kubernetes;

import dev.noneops.ports.machine.MachineResourceException;
import dev.noneops.ports.machine.MachineResourceException.Kind;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.UnresolvedAddressException;

/** Turns the client's unchecked errors into the port's typed refusals, by HTTP status. */
final class MachineFailures {
  private static final int UNPROCESSABLE_ENTITY = 422;
  private static final int GONE = 410;

  private MachineFailures() {}

  static MachineResourceException of(
      String operation, String machine, RuntimeException e, URI server) {
    if (e instanceof KubernetesClientException k) {
      return new MachineResourceException(
          kindOf(k),
          machine,
          operation + " machines/" + machine + ": " + describe(k, server.toString()),
          k);
    }
    return new MachineResourceException(
        Kind.OTHER, machine, operation + " machines/" + machine + ": " + e, e);
  }

  /**
   * What went wrong, in words an operator can act on: the API server's answer, or, when none came
   * (fabric8 then says only "An error has occurred."), what kept it from coming: a host that does
   * not resolve, a connection refused or closed, no answer in time, a TLS handshake refused.
   */
  static String describe(KubernetesClientException e, String server) {
    String message = String.valueOf(e.getMessage());
    if (e.getCode() > 0 || e.getCause() == null) {
      return message;
    }
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String why;
    if (root instanceof UnresolvedAddressException || root instanceof UnknownHostException) {
      why = "cannot resolve the host of the API server " + server;
    } else if (root instanceof ConnectException || root instanceof ClosedChannelException) {
      why = "cannot connect to the API server " + server + " (refused or closed)";
    } else if (root instanceof HttpTimeoutException || root instanceof SocketTimeoutException) {
      why = "no answer from the API server " + server + " in time";
    } else {
      why = root.getClass().getSimpleName()
          + (root.getMessage() == null || root.getMessage().isBlank()
              ? ""
              : ": " + root.getMessage())
          + " (API server " + server + ")";
    }
    return message.startsWith("An error has occurred") ? why : message + " (" + why + ")";
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
