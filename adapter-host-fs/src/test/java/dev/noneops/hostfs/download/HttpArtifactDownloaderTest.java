package dev.noneops.hostfs.download;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.hostfs.testing.ArtifactServer;
import dev.noneops.hostfs.testing.RecordingClock;
import dev.noneops.ports.download.DownloadException;
import dev.noneops.ports.download.DownloadException.Reason;
import dev.noneops.ports.download.DownloadListener;
import dev.noneops.ports.download.DownloadResult;
import dev.noneops.ports.download.Sha256;
import dev.noneops.ports.files.HostFiles;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HttpArtifactDownloaderTest {

  private static final long LIMIT = 10L << 20;

  @TempDir
  Path dir;

  private final byte[] tarball = randomBytes(300_000);
  private final Sha256 tarballSha = sha256(tarball);
  private final RecordingClock clock = new RecordingClock();
  private final ArtifactServer server;
  private final HttpArtifactDownloader downloader = HttpArtifactDownloader.create(
      new HttpArtifactDownloader.Settings(
          Duration.ofSeconds(5),
          Duration.ofSeconds(5),
          Duration.ofMillis(500),
          new RetryPolicy(3, Duration.ofMillis(100), Duration.ofSeconds(2))),
      clock);

  HttpArtifactDownloaderTest() throws Exception {
    server = new ArtifactServer();
  }

  @AfterEach
  void stopServer() {
    server.close();
  }

  private static byte[] randomBytes(int n) {
    byte[] b = new byte[n];
    new Random(n).nextBytes(b);
    return b;
  }

  private static Sha256 sha256(byte[] content) {
    try {
      return new Sha256(
          HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content)));
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private List<String> leftovers() throws Exception {
    try (var s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith(HostFiles.TEMP_PREFIX))
          .toList();
    }
  }

  private static void assertReason(ThrowingCallable call, Reason reason, URI url) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(DownloadException.class, e -> {
          assertThat(e.reason()).isEqualTo(reason);
          assertThat(e.url()).isEqualTo(url);
        })
        .hasMessageContaining(url.toString());
  }

  @Test
  void aHeadOfAPortNobodyListensOnIsATransportFailureWithinItsTimeout() throws Exception {
    int closed;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closed = probe.getLocalPort();
    }
    URI url = URI.create("http://127.0.0.1:" + closed + "/kubelet");
    long start = System.nanoTime();

    assertReason(() -> downloader.head(url, Duration.ofSeconds(2)), Reason.TRANSPORT, url);

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
  }

  @Test
  void aHeadIsAnsweredWithoutTheBody() throws Exception {
    server.serving("/kubelet", tarball);

    assertThat(downloader.head(server.url("/kubelet"), Duration.ofSeconds(2))).isEqualTo(200);
    assertThat(downloader.head(server.url("/nothing"), Duration.ofSeconds(2))).isEqualTo(404);
    assertThat(leftovers()).isEmpty();
  }

  @Test
  void downloadsVerifiesAndPlacesTheArtifact() throws Exception {
    server.serving("/kubelet.tar.gz", tarball);
    Path dest = dir.resolve("kubelet.tar.gz");
    List<long[]> progress = new CopyOnWriteArrayList<>();

    DownloadResult r = downloader.download(
        server.url("/kubelet.tar.gz"),
        Optional.of(tarballSha),
        dest,
        LIMIT,
        (url, got, total) -> progress.add(new long[] {got, total}));

    assertThat(r.file()).isEqualTo(dest);
    assertThat(r.sha256()).isEqualTo(tarballSha);
    assertThat(r.bytes()).isEqualTo(tarball.length);
    assertThat(r.bytesTransferred()).isEqualTo(tarball.length);
    assertThat(Files.readAllBytes(dest)).isEqualTo(tarball);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dest)))
        .isEqualTo("rw-r--r--");
    assertThat(leftovers()).isEmpty();
    assertThat(progress).isNotEmpty();
    assertThat(progress.get(progress.size() - 1)).containsExactly(tarball.length, tarball.length);
    assertThat(progress).extracting(p -> p[0]).isSorted();
  }

  @Test
  void downloadsWithoutAnExpectedDigestAndReportsTheActualOne() throws Exception {
    server.serving("/a", tarball);

    DownloadResult r = downloader.download(
        server.url("/a"), Optional.empty(), dir.resolve("a"), LIMIT, DownloadListener.NONE);

    assertThat(r.sha256()).isEqualTo(tarballSha);
  }

  @Test
  void transfersNothingWhenTheVerifiedArtifactIsAlreadyThere() throws Exception {
    server.serving("/present", tarball);
    Path dest = Files.write(dir.resolve("present"), tarball);

    DownloadResult r = downloader.download(
        server.url("/present"), Optional.of(tarballSha), dest, LIMIT, DownloadListener.NONE);

    assertThat(server.hits("/present")).isZero();
    assertThat(r.bytesTransferred()).isZero();
    assertThat(r.bytes()).isEqualTo(tarball.length);
    assertThat(r.sha256()).isEqualTo(tarballSha);
  }

  @Test
  void replacesADestinationWhoseContentDiffers() throws Exception {
    server.serving("/stale", tarball);
    Path dest = Files.writeString(dir.resolve("stale"), "an older artifact");

    downloader.download(
        server.url("/stale"), Optional.of(tarballSha), dest, LIMIT, DownloadListener.NONE);

    assertThat(server.hits("/stale")).isEqualTo(1);
    assertThat(Files.readAllBytes(dest)).isEqualTo(tarball);
  }

  @Test
  void leavesNoFileWhenTheChecksumDiffersAndDoesNotRetry() throws Exception {
    server.serving("/tampered", tarball);
    Sha256 other = sha256("something else".getBytes());
    Path dest = dir.resolve("tampered");

    assertReason(
        () -> downloader.download(
            server.url("/tampered"), Optional.of(other), dest, LIMIT, DownloadListener.NONE),
        Reason.CHECKSUM_MISMATCH,
        server.url("/tampered"));

    assertThat(dest).doesNotExist();
    assertThat(leftovers()).isEmpty();
    assertThat(server.hits("/tampered")).isEqualTo(1);
  }

  @Test
  void keepsAnExistingDestinationUntouchedWhenTheNewContentDoesNotVerify() throws Exception {
    server.serving("/x", tarball);
    Path dest = Files.writeString(dir.resolve("x"), "previous");

    assertThatThrownBy(() -> downloader.download(
            server.url("/x"), Optional.of(sha256(new byte[1])), dest, LIMIT, DownloadListener.NONE))
        .isInstanceOf(DownloadException.class);

    assertThat(Files.readString(dest)).isEqualTo("previous");
  }

  @Test
  void doesNotRetryA404() throws Exception {
    server.on("/missing", (ex, n) -> ArtifactServer.send(ex, 404, "not found".getBytes()));

    assertReason(
        () -> downloader.download(
            server.url("/missing"),
            Optional.empty(),
            dir.resolve("m"),
            LIMIT,
            DownloadListener.NONE),
        Reason.HTTP_STATUS,
        server.url("/missing"));

    assertThat(server.hits("/missing")).isEqualTo(1);
    assertThat(clock.sleeps()).isEmpty();
    assertThat(leftovers()).isEmpty();
  }

  @Test
  void retriesA503WithBackoffThenSucceeds() throws Exception {
    server.on(
        "/flaky",
        (ex, n) ->
            ArtifactServer.send(ex, n <= 2 ? 503 : 200, n <= 2 ? "busy".getBytes() : tarball));

    DownloadResult r = downloader.download(
        server.url("/flaky"),
        Optional.of(tarballSha),
        dir.resolve("f"),
        LIMIT,
        DownloadListener.NONE);

    assertThat(r.sha256()).isEqualTo(tarballSha);
    assertThat(server.hits("/flaky")).isEqualTo(3);
    assertThat(clock.sleeps()).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200));
  }

  @Test
  void givesUpAfterTheLastAttemptAndNamesTheStatus() throws Exception {
    server.on("/down", (ex, n) -> ArtifactServer.send(ex, 502, new byte[0]));

    assertThatThrownBy(() -> downloader.download(
            server.url("/down"), Optional.empty(), dir.resolve("d"), LIMIT, DownloadListener.NONE))
        .isInstanceOfSatisfying(
            DownloadException.class, e -> assertThat(e.reason()).isEqualTo(Reason.HTTP_STATUS))
        .hasMessageContaining("502")
        .hasMessageContaining("3 attempts");
    assertThat(server.hits("/down")).isEqualTo(3);
  }

  @Test
  void honoursRetryAfterOfA429WithinTheBackoffCap() throws Exception {
    server.on("/limited", (ex, n) -> {
      if (n == 1) {
        ex.getResponseHeaders().add("Retry-After", "1");
        ArtifactServer.send(ex, 429, new byte[0]);
      } else {
        ArtifactServer.send(ex, 200, tarball);
      }
    });

    downloader.download(
        server.url("/limited"),
        Optional.of(tarballSha),
        dir.resolve("l"),
        LIMIT,
        DownloadListener.NONE);

    assertThat(clock.sleeps()).containsExactly(Duration.ofSeconds(1));
  }

  @Test
  void retriesConnectionFailuresThenReportsTransport() throws Exception {
    URI closed;
    try (ServerSocket s = new ServerSocket(0)) {
      closed = URI.create("http://127.0.0.1:" + s.getLocalPort() + "/artifact");
    }
    URI url = closed;

    assertReason(
        () -> downloader.download(
            url, Optional.empty(), dir.resolve("c"), LIMIT, DownloadListener.NONE),
        Reason.TRANSPORT,
        url);

    assertThat(clock.sleeps()).hasSize(2);
    assertThat(leftovers()).isEmpty();
  }

  @Test
  void abandonsAStalledBodyAndRetries() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    server.on("/stall", (ex, n) -> {
      if (n == 1) {
        ex.sendResponseHeaders(200, tarball.length);
        OutputStream out = ex.getResponseBody();
        out.write(tarball, 0, 1000);
        out.flush();
        try {
          release.await(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      } else {
        ArtifactServer.send(ex, 200, tarball);
      }
    });
    try {
      DownloadResult r = downloader.download(
          server.url("/stall"),
          Optional.of(tarballSha),
          dir.resolve("s"),
          LIMIT,
          DownloadListener.NONE);

      assertThat(r.sha256()).isEqualTo(tarballSha);
      assertThat(r.bytesTransferred())
          .as("the stalled attempt's bytes count too")
          .isEqualTo(tarball.length + 1000L);
      assertThat(server.hits("/stall")).isEqualTo(2);
    } finally {
      release.countDown();
    }
  }

  @Test
  void refusesContentAnnouncedLargerThanAllowedWithoutReadingIt() throws Exception {
    server.serving("/big", tarball);

    assertReason(
        () -> downloader.download(
            server.url("/big"), Optional.empty(), dir.resolve("b"), 1000, DownloadListener.NONE),
        Reason.TOO_LARGE,
        server.url("/big"));

    assertThat(server.hits("/big")).isEqualTo(1);
    assertThat(dir.resolve("b")).doesNotExist();
    assertThat(leftovers()).isEmpty();
  }

  @Test
  void stopsAnUnannouncedBodyOnceItExceedsTheLimit() throws Exception {
    server.on("/chunked", (ex, n) -> {
      ex.sendResponseHeaders(200, 0);
      try (OutputStream out = ex.getResponseBody()) {
        out.write(tarball);
      } catch (java.io.IOException clientHungUp) {
        // expected: the client stops reading
      }
    });

    assertReason(
        () -> downloader.download(
            server.url("/chunked"),
            Optional.empty(),
            dir.resolve("c"),
            50_000,
            DownloadListener.NONE),
        Reason.TOO_LARGE,
        server.url("/chunked"));
    assertThat(dir.resolve("c")).doesNotExist();
    assertThat(leftovers()).isEmpty();
  }

  @Test
  void acceptsContentOfExactlyTheLimit() throws Exception {
    server.serving("/exact", tarball);

    assertThat(downloader
            .download(
                server.url("/exact"),
                Optional.of(tarballSha),
                dir.resolve("e"),
                tarball.length,
                DownloadListener.NONE)
            .bytes())
        .isEqualTo(tarball.length);
  }

  @Test
  void fetchesSmallDocumentsIntoMemoryWithinTheirLimit() throws Exception {
    server.serving("/kubelet.sha256", (tarballSha + "  kubelet\n").getBytes());

    assertThat(new String(downloader.fetch(server.url("/kubelet.sha256"), 1024)))
        .startsWith(tarballSha.hex());
    assertReason(
        () -> downloader.fetch(server.url("/kubelet.sha256"), 10),
        Reason.TOO_LARGE,
        server.url("/kubelet.sha256"));
  }

  @Test
  void rejectsUrlsThatAreNotHttpAndDestinationsThatAreNotAbsolute() {
    assertThatThrownBy(() -> downloader.download(
            URI.create("file:///etc/passwd"),
            Optional.empty(),
            dir.resolve("p"),
            LIMIT,
            DownloadListener.NONE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("file:///etc/passwd");
    assertThatThrownBy(() -> downloader.download(
            server.url("/x"), Optional.empty(), Path.of("relative"), LIMIT, DownloadListener.NONE))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> downloader.fetch(server.url("/x"), 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void reportsALocalWriteFailureWithItsErrnoAndWithoutRetrying() throws Exception {
    server.serving("/art", tarball);

    assertThatThrownBy(() -> downloader.download(
            server.url("/art"),
            Optional.empty(),
            dir.resolve("missing-dir/art"),
            LIMIT,
            DownloadListener.NONE))
        .isInstanceOfSatisfying(
            dev.noneops.ports.HostIOException.class,
            e -> assertThat(e.errno()).isEqualTo(dev.noneops.ports.Errno.ENOENT));
    assertThat(clock.sleeps()).isEmpty();
  }
}
