package dev.noneops.hostfs.download;

import dev.noneops.hostfs.internal.io.Fsync;
import dev.noneops.hostfs.internal.io.IoErrors;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.download.ArtifactDownloader;
import dev.noneops.ports.download.DownloadException;
import dev.noneops.ports.download.DownloadListener;
import dev.noneops.ports.download.DownloadResult;
import dev.noneops.ports.download.Sha256;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.time.HostClock;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link ArtifactDownloader} over the JDK's {@link HttpClient}.
 *
 * <p>A download streams into a temp file beside its destination while hashing it; only content of
 * the expected SHA-256 and within {@code maxBytes} is fsynced and renamed into place, so a file at
 * the destination is always complete and verified, and a failed download leaves nothing behind.
 * A {@link #downloadScratch scratch} download skips both fsyncs.
 * Connection failures, stalls, 5xx and 429 are retried with backoff (honouring
 * {@code Retry-After}); other statuses, oversize content and checksum mismatches fail at once.
 * Progress is reported on the calling thread.
 */
public final class HttpArtifactDownloader implements ArtifactDownloader {

  private static final Logger LOG = LoggerFactory.getLogger(HttpArtifactDownloader.class);
  private static final long POLL_MILLIS = 100;
  private static final int HASH_BUFFER = 64 * 1024;

  /**
   * Timeouts and retries.
   *
   * @param connectTimeout for establishing a connection
   * @param responseTimeout for the response headers once the request is sent
   * @param idleTimeout for a body that stops arriving
   * @param retries how transient failures are retried
   */
  public record Settings(
      Duration connectTimeout,
      Duration responseTimeout,
      Duration idleTimeout,
      RetryPolicy retries) {
    public static final Settings DEFAULT = new Settings(
        Duration.ofSeconds(15),
        Duration.ofSeconds(60),
        Duration.ofSeconds(60),
        RetryPolicy.DEFAULT);

    public Settings {
      Objects.requireNonNull(connectTimeout, "connectTimeout");
      Objects.requireNonNull(responseTimeout, "responseTimeout");
      Objects.requireNonNull(idleTimeout, "idleTimeout");
      Objects.requireNonNull(retries, "retries");
    }
  }

  private final HttpClient client;
  private final Settings settings;
  private final HostClock clock;
  private final SecureRandom random = new SecureRandom();

  public HttpArtifactDownloader(HttpClient client, Settings settings, HostClock clock) {
    this.client = Objects.requireNonNull(client, "client");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** A downloader with its own client (following redirects, except https to http). */
  public static HttpArtifactDownloader create(Settings settings, HostClock clock) {
    HttpClient client = HttpClient.newBuilder()
        .followRedirects(HttpClient.Redirect.NORMAL)
        .connectTimeout(settings.connectTimeout())
        .build();
    return new HttpArtifactDownloader(client, settings, clock);
  }

  @Override
  public DownloadResult download(
      URI url,
      Optional<Sha256> expected,
      Path destination,
      long maxBytes,
      DownloadListener listener)
      throws IOException {
    return download(url, expected, destination, maxBytes, listener, true);
  }

  /** Like {@link #download} without any fsync: the caller removes the file after extracting it. */
  @Override
  public DownloadResult downloadScratch(
      URI url,
      Optional<Sha256> expected,
      Path destination,
      long maxBytes,
      DownloadListener listener)
      throws IOException {
    return download(url, expected, destination, maxBytes, listener, false);
  }

  private DownloadResult download(
      URI url,
      Optional<Sha256> expected,
      Path destination,
      long maxBytes,
      DownloadListener listener,
      boolean durable)
      throws IOException {
    requireHttp(url);
    Objects.requireNonNull(expected, "expected");
    Objects.requireNonNull(listener, "listener");
    requireLimit(maxBytes);
    if (!destination.isAbsolute() || destination.getParent() == null) {
      throw new IllegalArgumentException(
          "destination must be an absolute file path: " + destination);
    }
    if (expected.isPresent()) {
      Optional<DownloadResult> present = alreadyPresent(destination, expected.get());
      if (present.isPresent()) {
        return present.get();
      }
    }
    long[] transferred = {0};
    return withRetries(
        url,
        () -> downloadOnce(url, expected, destination, maxBytes, listener, transferred, durable));
  }

  @Override
  public byte[] fetch(URI url, long maxBytes) throws IOException {
    requireHttp(url);
    requireLimit(maxBytes);
    long[] transferred = {0};
    return withRetries(url, () -> {
      ByteArrayOutputStream memory = new ByteArrayOutputStream();
      BodySink sink = chunk -> {
        byte[] bytes = new byte[chunk.remaining()];
        chunk.get(bytes);
        memory.write(bytes);
      };
      transferOnce(url, maxBytes, sink, DownloadListener.NONE, transferred);
      return memory.toByteArray();
    });
  }

  @Override
  public int head(URI url, Duration timeout) throws IOException {
    requireHttp(url);
    Objects.requireNonNull(timeout, "timeout");
    HttpRequest request = HttpRequest.newBuilder(url)
        .method("HEAD", HttpRequest.BodyPublishers.noBody())
        .timeout(timeout)
        .build();
    CompletableFuture<HttpResponse<Void>> response =
        client.sendAsync(request, HttpResponse.BodyHandlers.discarding());
    try {
      return response.get(timeout.toMillis(), TimeUnit.MILLISECONDS).statusCode();
    } catch (TimeoutException e) {
      response.cancel(true);
      throw new DownloadException(
          url, DownloadException.Reason.TRANSPORT, "no answer within " + timeout, e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new DownloadException(
          url,
          DownloadException.Reason.TRANSPORT,
          cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage(),
          cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      response.cancel(true);
      throw new InterruptedIOException("interrupted during HEAD " + url);
    }
  }

  private DownloadResult downloadOnce(
      URI url,
      Optional<Sha256> expected,
      Path destination,
      long maxBytes,
      DownloadListener listener,
      long[] transferred,
      boolean durable)
      throws IOException {
    String name = Objects.requireNonNull(destination.getFileName(), "a download names a file")
        .toString();
    Path temp = destination.resolveSibling(
        HostFiles.TEMP_PREFIX + name.substring(0, Math.min(name.length(), 96)) + "." + nonce());
    MessageDigest digest = sha256();
    boolean placed = false;
    try (FileChannel channel = createTemp(temp, destination)) {
      BodySink sink = chunk -> {
        digest.update(chunk.duplicate());
        try {
          while (chunk.hasRemaining()) {
            channel.write(chunk);
          }
        } catch (IOException e) {
          throw IoErrors.translate(e, "write", destination);
        }
      };
      long bytes = transferOnce(url, maxBytes, sink, listener, transferred);
      Sha256 actual = new Sha256(HexFormat.of().formatHex(digest.digest()));
      if (expected.isPresent() && !expected.get().equals(actual)) {
        throw new DownloadException(
            url,
            DownloadException.Reason.CHECKSUM_MISMATCH,
            "expected sha256 " + expected.get() + " but received " + actual);
      }
      try {
        Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rw-r--r--"));
        if (durable) {
          channel.force(true);
        }
        Files.move(temp, destination, StandardCopyOption.ATOMIC_MOVE);
      } catch (IOException e) {
        throw IoErrors.translate(e, "install download", destination);
      }
      placed = true;
      if (durable) {
        Fsync.directory(Objects.requireNonNull(destination.getParent(), "a download names a file"));
      }
      return new DownloadResult(destination, actual, bytes, transferred[0]);
    } finally {
      if (!placed) {
        Files.deleteIfExists(temp);
      }
    }
  }

  private static FileChannel createTemp(Path temp, Path destination) throws IOException {
    try {
      return FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw IoErrors.translate(e, "write", destination);
    }
  }

  /** The destination, when it already holds exactly the expected content. */
  private static Optional<DownloadResult> alreadyPresent(Path destination, Sha256 expected)
      throws IOException {
    if (!Files.isRegularFile(destination, LinkOption.NOFOLLOW_LINKS)) {
      return Optional.empty();
    }
    MessageDigest digest = sha256();
    long size = 0;
    try (InputStream in = Files.newInputStream(destination)) {
      byte[] buffer = new byte[HASH_BUFFER];
      int n;
      while ((n = in.read(buffer)) >= 0) {
        digest.update(buffer, 0, n);
        size += n;
      }
    } catch (IOException e) {
      throw IoErrors.translate(e, "read", destination);
    }
    Sha256 actual = new Sha256(HexFormat.of().formatHex(digest.digest()));
    return actual.equals(expected)
        ? Optional.of(new DownloadResult(destination, actual, size, 0))
        : Optional.empty();
  }

  /** One attempt of a transfer into {@code sink}; returns the body's length. */
  private long transferOnce(
      URI url, long maxBytes, BodySink sink, DownloadListener listener, long[] transferred)
      throws IOException {
    AtomicReference<SinkSubscriber> current = new AtomicReference<>();
    long[] announced = {-1};
    HttpResponse.BodyHandler<Long> handler = info -> {
      long length = info.headers().firstValueAsLong("Content-Length").orElse(-1);
      announced[0] = length;
      AttemptFailure refusal = null;
      if (info.statusCode() < 200 || info.statusCode() > 299) {
        refusal = AttemptFailure.status(info.statusCode(), retryAfter(info.headers()));
      } else if (length > maxBytes) {
        refusal = AttemptFailure.tooLarge(
            "the server announced " + length + " bytes, more than the allowed " + maxBytes);
      }
      SinkSubscriber subscriber = new SinkSubscriber(sink, maxBytes, refusal);
      current.set(subscriber);
      return subscriber;
    };
    HttpRequest request =
        HttpRequest.newBuilder(url).GET().timeout(settings.responseTimeout()).build();
    CompletableFuture<HttpResponse<Long>> response = client.sendAsync(request, handler);
    long reported = -1;
    long lastChange = System.nanoTime();
    try {
      while (true) {
        try {
          long bytes = response.get(POLL_MILLIS, TimeUnit.MILLISECONDS).body();
          listener.progress(url, bytes, announced[0]);
          return bytes;
        } catch (TimeoutException pending) {
          SinkSubscriber subscriber = current.get();
          if (subscriber == null) {
            continue; // still waiting for the headers: the request's response timeout bounds this
          }
          long received = subscriber.received();
          if (received != reported) {
            reported = received;
            lastChange = System.nanoTime();
            listener.progress(url, received, announced[0]);
          } else if (System.nanoTime() - lastChange > settings.idleTimeout().toNanos()) {
            subscriber.abort(
                new HttpTimeoutException("no data received for " + settings.idleTimeout()));
          }
        }
      }
    } catch (ExecutionException e) {
      throw asIOException(e.getCause());
    } catch (InterruptedException e) {
      SinkSubscriber subscriber = current.get();
      if (subscriber != null) {
        subscriber.abort(new InterruptedIOException("interrupted"));
      }
      response.cancel(true);
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while downloading " + url);
    } finally {
      SinkSubscriber subscriber = current.get();
      if (subscriber != null) {
        transferred[0] += subscriber.received();
      }
    }
  }

  /** Runs {@code attempt} until it succeeds, fails for good, or the retries are spent. */
  private <T> T withRetries(URI url, Attempt<T> attempt) throws IOException {
    int max = settings.retries().maxAttempts();
    for (int n = 1; ; n++) {
      IOException failure;
      Duration serverAsked = Duration.ZERO;
      try {
        return attempt.run();
      } catch (AttemptFailure f) {
        switch (f.kind()) {
          case SINK:
            throw (IOException) f.getCause();
          case TOO_LARGE:
            throw new DownloadException(url, DownloadException.Reason.TOO_LARGE, f.getMessage());
          case STATUS:
          default:
            if (!f.isTransientStatus()) {
              throw new DownloadException(
                  url, DownloadException.Reason.HTTP_STATUS, "HTTP status " + f.status());
            }
            if (n >= max) {
              throw new DownloadException(
                  url,
                  DownloadException.Reason.HTTP_STATUS,
                  "HTTP status " + f.status() + " after " + n + " attempts");
            }
            serverAsked = f.retryAfter();
            failure = f;
        }
      } catch (DownloadException | InterruptedIOException | HostIOException e) {
        throw e;
      } catch (IOException e) {
        if (n >= max) {
          throw new DownloadException(
              url,
              DownloadException.Reason.TRANSPORT,
              describe(e) + " after " + n + " attempts",
              e);
        }
        failure = e;
      }
      Duration wait = settings.retries().backoffAfter(n, serverAsked);
      LOG.warn(
          "download {} attempt {} of {} failed: {}; retrying in {} ms",
          url,
          n,
          max,
          describe(failure),
          wait.toMillis());
      try {
        clock.sleep(wait);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while waiting to retry " + url);
      }
    }
  }

  @FunctionalInterface
  private interface Attempt<T> {
    T run() throws IOException;
  }

  private static IOException asIOException(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof AttemptFailure
          || c instanceof InterruptedIOException
          || c instanceof HostIOException) {
        return (IOException) c;
      }
    }
    if (t instanceof IOException io) {
      return io;
    }
    return new IOException(t == null ? "unknown failure" : String.valueOf(t), t);
  }

  private static String describe(IOException e) {
    String message = e.getMessage();
    if (e instanceof AttemptFailure) {
      return message;
    }
    return e.getClass().getSimpleName()
        + (message == null || message.isBlank() ? "" : ": " + message);
  }

  private static Duration retryAfter(HttpHeaders headers) {
    Optional<String> value = headers.firstValue("Retry-After");
    if (value.isEmpty()) {
      return Duration.ZERO;
    }
    try {
      return Duration.ofSeconds(Math.max(0, Long.parseLong(value.get().trim())));
    } catch (NumberFormatException e) {
      return Duration.ZERO; // an HTTP date: our own backoff applies
    }
  }

  private String nonce() {
    byte[] bytes = new byte[8];
    random.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK offers no SHA-256", e);
    }
  }

  private static void requireHttp(URI url) {
    Objects.requireNonNull(url, "url");
    String scheme = url.getScheme();
    if (scheme == null
        || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))
        || url.getHost() == null) {
      throw new IllegalArgumentException("not an http(s) URL with a host: " + url);
    }
  }

  private static void requireLimit(long maxBytes) {
    if (maxBytes <= 0) {
      throw new IllegalArgumentException("maxBytes must be positive: " + maxBytes);
    }
  }
}
