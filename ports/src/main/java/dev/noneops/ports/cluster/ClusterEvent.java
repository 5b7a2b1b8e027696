package dev.noneops.ports.cluster;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A Kubernetes Event ({@code events.k8s.io/v1}) about what happened to the node: created in
 * {@code namespace}, {@code regarding} one object (the Machine) and {@code related} to another
 * (the Node, where one exists), with a {@code reason} a fleet can alert on (UpperCamelCase, at
 * most 128 characters), the {@code action} taken, and a human-readable {@code note} (at most 1 kB,
 * carrying no secret).
 */
public record ClusterEvent(
    String namespace,
    ObjectRef regarding,
    Optional<ObjectRef> related,
    Type type,
    String reason,
    String action,
    String note,
    Instant eventTime,
    String reportingController,
    String reportingInstance) {

  /** The Event's type. */
  public enum Type {
    NORMAL("Normal"),
    WARNING("Warning");

    private final String wire;

    Type(String wire) {
      this.wire = wire;
    }

    /** As the API server spells it. */
    public String wire() {
      return wire;
    }
  }

  /** An object an Event is about. {@code namespace} is {@code ""} for a cluster-scoped one. */
  public record ObjectRef(String apiVersion, String kind, String namespace, String name) {
    public ObjectRef {
      Objects.requireNonNull(apiVersion, "apiVersion");
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(namespace, "namespace");
      if (name == null || name.isEmpty()) {
        throw new IllegalArgumentException("an object reference needs a name");
      }
    }

    /** A Node. */
    public static ObjectRef node(String name) {
      return new ObjectRef("v1", "Node", "", name);
    }
  }

  /** The longest note the API server accepts. */
  public static final int MAX_NOTE = 1024;

  public ClusterEvent {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(regarding, "regarding");
    Objects.requireNonNull(related, "related");
    Objects.requireNonNull(type, "type");
    if (reason == null || reason.isEmpty() || reason.length() > 128) {
      throw new IllegalArgumentException("an Event's reason is 1 to 128 characters: " + reason);
    }
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(note, "note");
    if (note.length() > MAX_NOTE) {
      note = note.substring(0, MAX_NOTE - 3) + "...";
    }
    Objects.requireNonNull(eventTime, "eventTime");
    Objects.requireNonNull(reportingController, "reportingController");
    Objects.requireNonNull(reportingInstance, "reportingInstance");
  }
}
