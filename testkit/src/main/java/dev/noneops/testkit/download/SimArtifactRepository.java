package dev.noneops.testkit.download;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The artifact server of the simulated world: URLs with content, or with an HTTP error status,
 * or failing transiently a number of times. Counts the bytes it served, so a test can assert that
 * an operation downloaded nothing.
 */
public final class SimArtifactRepository {
  private final Object lock;
  private final Map<URI, byte[]> content = new HashMap<>();
  private final Map<URI, Integer> statuses = new HashMap<>();
  private final Map<URI, Integer> transientFailures = new HashMap<>();
  private final Map<URI, Long> servedPerUrl = new HashMap<>();
  private long bytesServed;
  private long requests;

  public SimArtifactRepository(Object lock) {
    this.lock = Objects.requireNonNull(lock, "lock");
  }

  /** Serves {@code bytes} at {@code url} (replacing what was there). */
  public void publish(URI url, byte[] bytes) {
    synchronized (lock) {
      content.put(Objects.requireNonNull(url, "url"), bytes.clone());
      statuses.remove(url);
    }
  }

  /**
   * Serves {@code bytes} at {@code url} and their SHA-256 (hex, newline-terminated) beside it, at
   * its path plus {@code .sha256} with its query kept ({@code .../kubelet.sha256?X-Amz-...}), as
   * Kubernetes' release site and its mirrors publish it.
   */
  public String publishWithSha256(URI url, byte[] bytes) {
    String hex = sha256Hex(bytes);
    publish(url, bytes);
    String raw = url.toString();
    int pathEnd = raw.length();
    for (char c : new char[] {'?', '#'}) {
      int at = raw.indexOf(c);
      if (at >= 0 && at < pathEnd) {
        pathEnd = at;
      }
    }
    publish(
        URI.create(raw.substring(0, pathEnd) + ".sha256" + raw.substring(pathEnd)),
        (hex + "\n").getBytes(StandardCharsets.US_ASCII));
    return hex;
  }

  /** What is published at {@code url}, if anything. */
  public Optional<byte[]> published(URI url) {
    synchronized (lock) {
      return Optional.ofNullable(content.get(url)).map(byte[]::clone);
    }
  }

  /** Answers {@code url} with an HTTP error status (404, 500, ...). */
  public void respondWithStatus(URI url, int status) {
    if (status < 400 || status > 599) {
      throw new IllegalArgumentException("an error status is 4xx or 5xx: " + status);
    }
    synchronized (lock) {
      statuses.put(url, status);
    }
  }

  /** The next {@code times} requests of {@code url} break off (connection reset). */
  public void failTransiently(URI url, int times) {
    synchronized (lock) {
      transientFailures.put(url, times);
    }
  }

  /** Stops serving {@code url}: it answers 404 again. */
  public void remove(URI url) {
    synchronized (lock) {
      content.remove(url);
      statuses.remove(url);
    }
  }

  /** Bytes served so far, over every URL. */
  public long bytesServed() {
    synchronized (lock) {
      return bytesServed;
    }
  }

  /** Bytes served so far for one URL. */
  public long bytesServed(URI url) {
    synchronized (lock) {
      return servedPerUrl.getOrDefault(url, 0L);
    }
  }

  /** Requests answered so far (including failed ones). */
  public long requests() {
    synchronized (lock) {
      return requests;
    }
  }

  /** What a GET of {@code url} answers. */
  sealed interface Response {}

  record Ok(byte[] body) implements Response {}

  record Status(int code) implements Response {}

  record Broken() implements Response {}

  Response get(URI url) {
    synchronized (lock) {
      requests++;
      int failures = transientFailures.getOrDefault(url, 0);
      if (failures > 0) {
        transientFailures.put(url, failures - 1);
        return new Broken();
      }
      Integer status = statuses.get(url);
      if (status != null) {
        return new Status(status);
      }
      return Optional.ofNullable(content.get(url))
          .<Response>map(b -> new Ok(b.clone()))
          .orElse(new Status(404));
    }
  }

  /** What a HEAD of {@code url} answers: its status, without counting as a transfer. */
  int head(URI url) {
    synchronized (lock) {
      Integer status = statuses.get(url);
      if (status != null) {
        return status;
      }
      return content.containsKey(url) ? 200 : 404;
    }
  }

  void served(URI url, long bytes) {
    synchronized (lock) {
      bytesServed += bytes;
      servedPerUrl.merge(url, bytes, Long::sum);
    }
  }

  /** The SHA-256 of {@code bytes} as lower-case hex. */
  public static String sha256Hex(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is a mandatory JDK algorithm", e);
    }
  }
}
