package dev.noneops.ports.cluster;

import java.io.IOException;
import java.util.Objects;

/**
 * The API server refused a call about the node's Node object or its pods, or could not be asked.
 * {@link #kind()} classifies the refusal so callers react to it without reading messages; the
 * message carries the API server's own words.
 */
public class ClusterNodeException extends IOException {
  private static final long serialVersionUID = 1L;

  /** The class of refusal. */
  public enum Kind {
    /** There is no such Node (for a call that needs one). */
    NOT_FOUND,
    /** The object kept changing under the call ({@code resourceVersion} conflicts). */
    CONFLICT,
    /** The credentials were refused (401) or do not allow the call (403). */
    FORBIDDEN,
    /** The API server could not be reached, or the connection broke, or it timed out. */
    UNREACHABLE,
    /** Any other answer of the API server. */
    OTHER
  }

  private final Kind kind;
  private final String subject;

  public ClusterNodeException(Kind kind, String subject, String message, Throwable cause) {
    super(message, cause);
    this.kind = Objects.requireNonNull(kind, "kind");
    this.subject = subject == null ? "" : subject;
  }

  public ClusterNodeException(Kind kind, String subject, String message) {
    this(kind, subject, message, null);
  }

  public Kind kind() {
    return kind;
  }

  /** The Node or pod ({@code namespace/name}) the call was about. */
  public String subject() {
    return subject;
  }
}
