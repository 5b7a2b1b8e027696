package dev.noneops.daemon.internal;

import dev.noneops.core.config.UrlRedaction;
import dev.noneops.ports.cluster.ClusterEvent;
import dev.noneops.ports.cluster.ClusterNode;
import dev.noneops.ports.time.HostClock;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;

/**
 * Hands the daemon's Kubernetes Events ({@code events.k8s.io/v1}) to the API server without ever
 * holding up an operation: {@link #offer} only puts the Event in a bounded queue ({@link
 * #CAPACITY}; one that does not fit is dropped and counted) and returns; the queue is sent on
 * {@code executor}, one Event after the other, each call bounded by the client's own request
 * timeout. The same reason about the same object is sent at most once per {@link
 * #SAME_REASON_INTERVAL} (later ones are dropped and counted), so a node that fails the same way
 * again and again does not flood the cluster. Every note is redacted first ({@link
 * UrlRedaction}: no download URL's user information or query values) and cut to what the API
 * server accepts. An Event the API server refuses or cannot take is logged and dropped.
 */
public final class ClusterEventSink {
  /** How many Events may wait to be sent. */
  public static final int CAPACITY = 32;

  /** How often the same reason about the same object is sent at most. */
  public static final Duration SAME_REASON_INTERVAL = Duration.ofMinutes(1);

  private final Supplier<ClusterNode> cluster;
  private final HostClock clock;
  private final Logger log;
  private final Executor executor;
  private final BlockingQueue<ClusterEvent> queue = new ArrayBlockingQueue<>(CAPACITY);
  private final Map<String, Instant> lastSent = new HashMap<>();
  private final AtomicBoolean draining = new AtomicBoolean();
  private final AtomicLong dropped = new AtomicLong();

  public ClusterEventSink(
      Supplier<ClusterNode> cluster, HostClock clock, Logger log, Executor executor) {
    this.cluster = Objects.requireNonNull(cluster, "cluster");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.log = Objects.requireNonNull(log, "log");
    this.executor = Objects.requireNonNull(executor, "executor");
  }

  /**
   * Queues {@code event} (its note redacted) to be sent; never blocks.
   *
   * @return whether it was queued: false when the same reason about the same object was sent
   *     within {@link #SAME_REASON_INTERVAL}, or the queue is full
   */
  public boolean offer(ClusterEvent event) {
    String key = event.reason() + " " + event.regarding().kind() + "/"
        + event.regarding().name();
    Instant now = clock.now();
    synchronized (lastSent) {
      Instant last = lastSent.get(key);
      if (last != null && now.isBefore(last.plus(SAME_REASON_INTERVAL))) {
        dropped.incrementAndGet();
        return false;
      }
      lastSent.put(key, now);
    }
    ClusterEvent redacted = new ClusterEvent(
        event.namespace(),
        event.regarding(),
        event.related(),
        event.type(),
        event.reason(),
        event.action(),
        UrlRedaction.redact(event.note()).replace('\n', ' '),
        event.eventTime(),
        event.reportingController(),
        event.reportingInstance());
    if (!queue.offer(redacted)) {
      dropped.incrementAndGet();
      log.atWarn()
          .addKeyValue("reason", event.reason())
          .log("too many Events wait to be sent to the API server; this one is dropped");
      return false;
    }
    schedule();
    return true;
  }

  /** How many Events were dropped: rate-limited, or the queue was full. */
  public long dropped() {
    return dropped.get();
  }

  /** How many Events wait to be sent. */
  public int waiting() {
    return queue.size();
  }

  private void schedule() {
    if (draining.compareAndSet(false, true)) {
      try {
        executor.execute(this::drain);
      } catch (RuntimeException e) {
        draining.set(false);
        log.atWarn().addKeyValue("error", e.getMessage()).log("cannot send Events now");
      }
    }
  }

  private void drain() {
    try {
      ClusterEvent next;
      while ((next = queue.poll()) != null) {
        send(next);
      }
    } finally {
      draining.set(false);
    }
    if (!queue.isEmpty()) {
      schedule();
    }
  }

  private void send(ClusterEvent event) {
    try {
      cluster.get().recordEvent(event);
    } catch (IOException | RuntimeException e) {
      log.atWarn()
          .addKeyValue("reason", event.reason())
          .addKeyValue("error", UrlRedaction.redact(String.valueOf(e.getMessage())))
          .log("the API server did not take an Event; it is dropped");
    }
  }
}
