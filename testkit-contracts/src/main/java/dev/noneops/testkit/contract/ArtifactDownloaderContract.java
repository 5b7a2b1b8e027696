package dev.noneops.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.download.ArtifactDownloader;
import dev.noneops.ports.download.DownloadException;
import dev.noneops.ports.download.DownloadListener;
import dev.noneops.ports.download.DownloadResult;
import dev.noneops.ports.download.Sha256;
import dev.noneops.ports.files.HostFiles;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The {@link ArtifactDownloader} contract. A subclass supplies the port, the file port the
 * downloads land in, a scratch directory and an artifact server it can publish to.
 */
public abstract class ArtifactDownloaderContract {
  private static final long LIMIT = 1 << 20;

  protected abstract ArtifactDownloader downloader();

  protected abstract HostFiles files();

  /** An existing, empty, writable directory of this test. */
  protected abstract Path scratch();

  /** Serves {@code content} and returns its URL. */
  protected abstract URI publish(String name, byte[] content) throws Exception;

  /** A URL of the same server that answers 404. */
  protected abstract URI missing(String name) throws Exception;

  private static Sha256 sha(byte[] content) throws Exception {
    return new Sha256(
        HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content)));
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aDownloadPlacesVerifiedContentAndCountsTheTransfer() throws Exception {
    byte[] content = bytes("kubelet binary");
    URI url = publish("kubelet", content);
    Path dest = scratch().resolve("kubelet");
    AtomicLong received = new AtomicLong();
    DownloadResult r = downloader()
        .download(
            url, Optional.of(sha(content)), dest, LIMIT, (u, got, total) -> received.set(got));
    assertThat(r.file()).isEqualTo(dest);
    assertThat(r.sha256()).isEqualTo(sha(content));
    assertThat(r.bytes()).isEqualTo(content.length);
    assertThat(r.bytesTransferred()).isEqualTo(content.length);
    assertThat(received.get()).isEqualTo(content.length);
    assertThat(files().read(dest)).isEqualTo(content);
    assertThat(files().list(scratch())).containsExactly("kubelet");
  }

  @Test
  void aVerifiedFileAlreadyInPlaceIsNotTransferredAgain() throws Exception {
    byte[] content = bytes("containerd tarball");
    URI url = publish("containerd.tgz", content);
    Path dest = scratch().resolve("containerd.tgz");
    downloader().download(url, Optional.of(sha(content)), dest, LIMIT, DownloadListener.NONE);
    DownloadResult again =
        downloader().download(url, Optional.of(sha(content)), dest, LIMIT, DownloadListener.NONE);
    assertThat(again.bytesTransferred()).isZero();
    assertThat(again.bytes()).isEqualTo(content.length);
    assertThat(files().read(dest)).isEqualTo(content);
  }

  @Test
  void aFileWithOtherContentIsReplaced() throws Exception {
    byte[] content = bytes("the right content");
    URI url = publish("runc", content);
    Path dest = scratch().resolve("runc");
    files().writeDurably(dest, "stale", 0644);
    DownloadResult r =
        downloader().download(url, Optional.of(sha(content)), dest, LIMIT, DownloadListener.NONE);
    assertThat(r.bytesTransferred()).isEqualTo(content.length);
    assertThat(files().read(dest)).isEqualTo(content);
  }

  @Test
  void aChecksumMismatchLeavesNothingAndKeepsWhatWasThere() throws Exception {
    URI url = publish("tampered", bytes("tampered content"));
    Path fresh = scratch().resolve("fresh");
    Path existing = scratch().resolve("existing");
    files().writeDurably(existing, "previous", 0644);
    Sha256 expected = sha(bytes("what we expected"));
    for (Path dest : new Path[] {fresh, existing}) {
      assertThatThrownBy(() ->
              downloader().download(url, Optional.of(expected), dest, LIMIT, DownloadListener.NONE))
          .isInstanceOfSatisfying(
              DownloadException.class,
              e -> assertThat(e.reason()).isEqualTo(DownloadException.Reason.CHECKSUM_MISMATCH));
    }
    assertThat(files().list(scratch())).containsExactly("existing");
    assertThat(files().read(existing)).isEqualTo(bytes("previous"));
  }

  @Test
  void aHeadAnswersWhetherAnArtifactIsThereWithoutPlacingAnything() throws Exception {
    URI there = publish("head-there", bytes("head"));
    URI missing = missing("head-missing");
    assertThat(downloader().head(there, Duration.ofSeconds(5))).isEqualTo(200);
    assertThat(downloader().head(missing, Duration.ofSeconds(5))).isEqualTo(404);
    assertThat(files().list(scratch())).isEmpty();
  }

  @Test
  void aMissingArtifactIsAnHttpStatusError() throws Exception {
    URI url = missing("nothing-here");
    assertThatThrownBy(() -> downloader()
            .download(url, Optional.empty(), scratch().resolve("x"), LIMIT, DownloadListener.NONE))
        .isInstanceOfSatisfying(
            DownloadException.class,
            e -> assertThat(e.reason()).isEqualTo(DownloadException.Reason.HTTP_STATUS));
    assertThat(files().list(scratch())).isEmpty();
  }

  @Test
  void contentOverTheLimitIsRefused() throws Exception {
    URI url = publish("big", new byte[4096]);
    assertThatThrownBy(() -> downloader()
            .download(url, Optional.empty(), scratch().resolve("big"), 1000, DownloadListener.NONE))
        .isInstanceOfSatisfying(
            DownloadException.class,
            e -> assertThat(e.reason()).isEqualTo(DownloadException.Reason.TOO_LARGE));
    assertThat(files().list(scratch())).isEmpty();
  }

  @Test
  void withoutAnExpectedDigestTheResultCarriesTheActualOne() throws Exception {
    byte[] content = bytes("unverified");
    URI url = publish("plain", content);
    DownloadResult r = downloader()
        .download(url, Optional.empty(), scratch().resolve("plain"), LIMIT, DownloadListener.NONE);
    assertThat(r.sha256()).isEqualTo(sha(content));
  }

  @Test
  void aDestinationInAMissingDirectoryFailsWithEnoent() throws Exception {
    URI url = publish("nowhere", bytes("x"));
    assertThatThrownBy(() -> downloader()
            .download(
                url,
                Optional.empty(),
                scratch().resolve("missing/x"),
                LIMIT,
                DownloadListener.NONE))
        .satisfies(e -> assertThat(HostIOException.hasErrno(e, Errno.ENOENT))
            .as("ENOENT in %s", e)
            .isTrue());
  }

  @Test
  void fetchReturnsASmallDocument() throws Exception {
    URI url = publish("kubelet.sha256", bytes("abc\n"));
    assertThat(downloader().fetch(url, 100)).isEqualTo(bytes("abc\n"));
    assertThatThrownBy(() -> downloader().fetch(url, 2))
        .isInstanceOfSatisfying(
            DownloadException.class,
            e -> assertThat(e.reason()).isEqualTo(DownloadException.Reason.TOO_LARGE));
  }
}
