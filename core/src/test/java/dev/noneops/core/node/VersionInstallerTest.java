package dev.noneops.core.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.common.hash.Hashing;
import dev.noneops.core.config.ComponentVersions;
import dev.noneops.core.goalstate.Artifact;
import dev.noneops.core.goalstate.RootFs;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.internal.task.TaskRunner;
import dev.noneops.core.node.internal.version.FileStamp;
import dev.noneops.core.node.internal.version.Manifest;
import dev.noneops.core.node.internal.version.VersionInstaller;
import dev.noneops.core.node.internal.version.VersionVerifier;
import dev.noneops.core.testing.SimulatedFiles;
import dev.noneops.ports.download.ArtifactDownloader;
import dev.noneops.ports.download.DownloadException;
import dev.noneops.ports.download.DownloadListener;
import dev.noneops.ports.download.DownloadResult;
import dev.noneops.ports.download.Sha256;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.time.HostClock;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class VersionInstallerTest {
  private static final String VERSION = "1.31.4-abc";
  private static final URI KUBELET = URI.create("https://dl.example/kubelet");
  private static final URI RUNC = URI.create("https://dl.example/runc");
  private static final URI CNI = URI.create("https://dl.example/cni.tgz");

  private final SimulatedFiles host = new SimulatedFiles();
  private final HostFiles files = host.port();
  private final FakeDownloader downloader = new FakeDownloader(files);
  private final Layout layout = new Layout(Path.of("/opt/unbounded/node"));
  private final VersionInstaller installer = new VersionInstaller(
      files,
      downloader,
      layout,
      new TaskRunner(
          LoggerFactory.getLogger(VersionInstallerTest.class),
          e -> {},
          new FixedClock(),
          Runnable::run));

  private RootFs rootFs(Artifact.Checksum kubeletChecksum, Artifact.Checksum runcChecksum)
      throws IOException {
    downloader.serve(KUBELET, "kubelet-binary");
    downloader.serve(URI.create(KUBELET + ".sha256"), sha("kubelet-binary") + "  kubelet\n");
    downloader.serve(RUNC, "runc-binary");
    downloader.serve(
        CNI,
        new Tarballs()
            .file("bridge", 0755, "bridge")
            .file("LICENSE", 0644, "text")
            .build());
    return new RootFs(
        VERSION,
        "amd64",
        "6.1",
        "h",
        new ComponentVersions("1.31.4", "2.0.4", "1.1.12", "1.5.1", "1.31.0", "1.11.3"),
        List.of(
            new Artifact(
                "kubelet", KUBELET, kubeletChecksum, new Artifact.Install.Binary("kubelet")),
            new Artifact("runc", RUNC, runcChecksum, new Artifact.Install.Binary("runc")),
            new Artifact(
                "cni-plugins",
                CNI,
                new Artifact.Checksum.Unverified(),
                new Artifact.Install.Tarball("", "libexec/cni", List.of()))),
        List.of(),
        List.of());
  }

  @Test
  void installsEveryArtifactWritesTheManifestAndReusesItNextTime() throws IOException {
    RootFs rootFs = rootFs(
        new Artifact.Checksum.Published(URI.create(KUBELET + ".sha256")),
        new Artifact.Checksum.Pinned(sha("runc-binary")));

    VersionInstaller.Result first = installer.install(rootFs);

    assertThat(first.reused()).isFalse();
    Manifest manifest = new VersionVerifier(files, layout).manifest(VERSION).orElseThrow();
    assertThat(manifest.fullyStamped()).isTrue();
    assertThat(manifest.files())
        .extracting(e -> e.withStamp(Optional.empty()))
        .containsExactly(
            new Manifest.Entry("bin/kubelet", 14, 0755, sha("kubelet-binary")),
            new Manifest.Entry("bin/runc", 11, 0755, sha("runc-binary")),
            new Manifest.Entry("libexec/cni/LICENSE", 4, 0644, sha("text")),
            new Manifest.Entry("libexec/cni/bridge", 6, 0755, sha("bridge")));
    assertThat(new VersionVerifier(files, layout).verify(VERSION).verified()).isTrue();
    assertThat(host.tree().keySet())
        .noneMatch(p -> p.contains(".staging") || p.contains(".downloads"));

    int requests = downloader.requests.size();
    VersionInstaller.Result second = installer.install(rootFs);
    assertThat(second.reused()).isTrue();
    assertThat(second.bytesDownloaded()).isZero();
    assertThat(downloader.requests).hasSize(requests);
  }

  @Test
  void aPinnedChecksumThatDoesNotMatchLeavesNoVersionDirectory() throws IOException {
    RootFs rootFs = rootFs(
        new Artifact.Checksum.Unverified(), new Artifact.Checksum.Pinned(sha("another runc")));

    InstallException e =
        catchThrowableOfType(InstallException.class, () -> installer.install(rootFs));

    assertThat(e.reason()).isEqualTo(InstallException.Reason.CHECKSUM_MISMATCH);
    assertThat(e.failedAt()).contains("download › download-runc");
    assertThat(e).hasMessageContaining(RUNC.toString());
    assertThat(files.exists(layout.versionDir(VERSION))).isFalse();
    assertThat(files.exists(layout.staging())).isFalse();
  }

  @Test
  void aPublishedChecksumThatIsNotADigestIsAClearError() throws IOException {
    RootFs rootFs = rootFs(
        new Artifact.Checksum.Published(URI.create(KUBELET + ".sha256")),
        new Artifact.Checksum.Unverified());
    downloader.serve(URI.create(KUBELET + ".sha256"), "<html>not found</html>");

    InstallException e =
        catchThrowableOfType(InstallException.class, () -> installer.install(rootFs));

    assertThat(e.reason()).isEqualTo(InstallException.Reason.CHECKSUM_UNAVAILABLE);
    assertThat(e).hasMessageContaining("kubelet").hasMessageContaining("is not a sha256");
  }

  @Test
  void theDigestOfADocumentListingEveryArchitectureIsTheLineNamingTheArtifactsFile()
      throws IOException {
    URI sums = URI.create("https://dl.example/runc.sha256sum");
    RootFs rootFs = rootFs(
        new Artifact.Checksum.Unverified(),
        new Artifact.Checksum.Published(sums, "runc.amd64", false));
    downloader.serve(
        sums,
        sha("arm64 runc") + "  runc.arm64\n" + sha("runc-binary") + " *./runc.amd64\n" + sha("x")
            + "  runc.tar.xz\n");

    installer.install(rootFs);

    assertThat(new VersionVerifier(files, layout).verify(VERSION).verified()).isTrue();
  }

  @Test
  void aDocumentListingOtherFilesOnlyRefusesTheArtifactUnlessUnverifiedIsAllowed()
      throws IOException {
    URI sums = URI.create("https://dl.example/runc.sha256sum");
    RootFs rootFs = rootFs(
        new Artifact.Checksum.Unverified(),
        new Artifact.Checksum.Published(sums, "runc.amd64", false));
    downloader.serve(sums, sha("runc-binary") + "  runc.arm64\n" + sha("x") + "  runc.armhf\n");

    InstallException e =
        catchThrowableOfType(InstallException.class, () -> installer.install(rootFs));

    assertThat(e.reason()).isEqualTo(InstallException.Reason.CHECKSUM_UNAVAILABLE);
    assertThat(e)
        .hasMessageContaining(
            "artifact runc from " + RUNC + " cannot be verified: its published checksum " + sums
                + " lists no digest for runc.amd64");
    assertThat(files.exists(layout.versionDir(VERSION))).isFalse();

    installer.install(rootFs(
        new Artifact.Checksum.Unverified(),
        new Artifact.Checksum.Published(sums, "runc.amd64", true)));
    assertThat(files.exists(layout.binDir(VERSION).resolve("runc"))).isTrue();
  }

  @Test
  void aMissingPublishedChecksumRefusesTheArtifactUnlessUnverifiedIsAllowed() throws IOException {
    URI missing = URI.create(RUNC + ".sha256");
    RootFs refused = rootFs(
        new Artifact.Checksum.Unverified(),
        new Artifact.Checksum.Published(missing, "runc", false));

    InstallException e =
        catchThrowableOfType(InstallException.class, () -> installer.install(refused));
    assertThat(e.reason()).isEqualTo(InstallException.Reason.CHECKSUM_UNAVAILABLE);
    assertThat(e)
        .hasMessageContaining("artifact runc from " + RUNC
            + " cannot be verified: its published checksum " + missing);
    assertThat(files.exists(layout.versionDir(VERSION))).isFalse();

    installer.install(rootFs(
        new Artifact.Checksum.Unverified(),
        new Artifact.Checksum.Published(missing, "runc", true)));
    assertThat(files.exists(layout.binDir(VERSION).resolve("runc"))).isTrue();
  }

  @Test
  void aCorruptActiveVersionIsNotReplacedUnderTheRunningNode() throws IOException {
    RootFs rootFs = rootFs(new Artifact.Checksum.Unverified(), new Artifact.Checksum.Unverified());
    installer.install(rootFs);
    files.symlinkDurably(layout.current(), VERSION);
    files.writeDurably(
        layout.binDir(VERSION).resolve("runc"), "tampered".getBytes(StandardCharsets.UTF_8), 0755);

    Throwable thrown = catchThrowable(() -> installer.install(rootFs));

    assertThat(thrown)
        .isInstanceOf(InstallException.class)
        .hasMessageContaining("active version")
        .hasMessageContaining("bin/runc");
    assertThat(((InstallException) thrown).reason()).isEqualTo(InstallException.Reason.CORRUPT);
  }

  @Test
  void everyManifestEntryIsStampedWithTheMetadataOfTheInstalledFile() throws IOException {
    installer.install(
        rootFs(new Artifact.Checksum.Unverified(), new Artifact.Checksum.Unverified()));

    Manifest manifest = new VersionVerifier(files, layout).manifest(VERSION).orElseThrow();
    for (Manifest.Entry entry : manifest.files()) {
      FileMeta meta =
          files.lstat(layout.versionDir(VERSION).resolve(entry.path())).orElseThrow();
      assertThat(entry.stamp())
          .contains(new FileStamp(meta.inode(), meta.ctimeNanos(), meta.mtimeNanos()));
    }
  }

  @Test
  void anUnchangedVersionIsReusedWithoutReadingAnyInstalledFile() throws IOException {
    RootFs rootFs = rootFs(new Artifact.Checksum.Unverified(), new Artifact.Checksum.Unverified());
    installer.install(rootFs);
    int readsBefore = host.contentReads().size();
    TreeMap<String, String> before = host.stamps();

    VersionInstaller.Result again = installer.install(rootFs);

    assertThat(again.reused()).isTrue();
    assertThat(host.contentReads().subList(readsBefore, host.contentReads().size()))
        .containsExactly(layout.manifest(VERSION));
    assertThat(host.stamps()).isEqualTo(before);
  }

  @Test
  void aFileReplacedAfterInstallIsCaughtByItsStampAndTheVersionIsInstalledAgain()
      throws IOException {
    RootFs rootFs = rootFs(new Artifact.Checksum.Unverified(), new Artifact.Checksum.Unverified());
    installer.install(rootFs);
    Path runc = layout.binDir(VERSION).resolve("runc");
    files.writeDurably(runc, "RUNC-binary".getBytes(StandardCharsets.UTF_8), 0755);
    int requests = downloader.requests.size();

    VersionInstaller.Result again = installer.install(rootFs);

    assertThat(again.reused()).isFalse();
    assertThat(downloader.requests.size()).isGreaterThan(requests);
    assertThat(files.readString(runc)).isEqualTo("runc-binary");
    assertThat(new VersionVerifier(files, layout).verify(VERSION).verified()).isTrue();
  }

  @Test
  void aFileWhoseMetadataChangedButNotItsContentIsReadOnceThenStampedAfresh() throws IOException {
    RootFs rootFs = rootFs(new Artifact.Checksum.Unverified(), new Artifact.Checksum.Unverified());
    installer.install(rootFs);
    Path runc = layout.binDir(VERSION).resolve("runc");
    files.chmod(runc, 0700);
    files.chmod(runc, 0755);
    int requests = downloader.requests.size();

    int readsBefore = host.contentReads().size();
    VersionInstaller.Result second = installer.install(rootFs);
    List<Path> secondReads =
        host.contentReads().subList(readsBefore, host.contentReads().size());

    assertThat(second.reused()).isTrue();
    assertThat(downloader.requests).hasSize(requests);
    assertThat(secondReads).contains(runc, layout.binDir(VERSION).resolve("kubelet"));
    readsBefore = host.contentReads().size();
    installer.install(rootFs);
    assertThat(host.contentReads().subList(readsBefore, host.contentReads().size()))
        .containsExactly(layout.manifest(VERSION));
  }

  @Test
  void aManifestWithoutStampsIsAcceptedReadInFullAndStamped() throws IOException {
    RootFs rootFs = rootFs(new Artifact.Checksum.Unverified(), new Artifact.Checksum.Unverified());
    installer.install(rootFs);
    VersionVerifier verifier = new VersionVerifier(files, layout);
    Manifest stamped = verifier.manifest(VERSION).orElseThrow();
    Manifest older = new Manifest(
        VERSION,
        stamped.files().stream().map(e -> e.withStamp(Optional.empty())).toList());
    files.writeDurably(layout.manifest(VERSION), older.toJson(), 0644);
    int requests = downloader.requests.size();

    int readsBefore = host.contentReads().size();
    VersionInstaller.Result second = installer.install(rootFs);

    assertThat(second.reused()).isTrue();
    assertThat(downloader.requests).hasSize(requests);
    assertThat(host.contentReads().subList(readsBefore, host.contentReads().size()))
        .hasSize(1 + stamped.files().size());
    assertThat(verifier.manifest(VERSION).orElseThrow().fullyStamped()).isTrue();
  }

  @Test
  void aContentChangeThatKeptEveryPieceOfMetadataIsCaughtByVerifyThoughPrepareTrustsTheStamps()
      throws IOException {
    RootFs rootFs = rootFs(new Artifact.Checksum.Unverified(), new Artifact.Checksum.Unverified());
    installer.install(rootFs);
    Path runc = layout.binDir(VERSION).resolve("runc");
    host.fs().corruptContent(runc, "runc-BINARY".getBytes(StandardCharsets.UTF_8));
    VersionVerifier verifier = new VersionVerifier(files, layout);

    assertThat(verifier.verifyTrustingStamps(VERSION).verified()).isTrue();
    VersionVerifier.Verification full = verifier.verify(VERSION);
    assertThat(full.state()).isEqualTo(VersionVerifier.Verification.State.CORRUPT);
    assertThat(full.describe()).contains("bin/runc has sha256 " + sha("runc-BINARY"));
  }

  @Test
  void filesStampedInTheSameClockTickAsTheManifestAreReadSoAChangeWithinThatTickIsCaught()
      throws IOException {
    RootFs rootFs = rootFs(new Artifact.Checksum.Unverified(), new Artifact.Checksum.Unverified());
    host.fs().coarseTimestamps(true);
    installer.install(rootFs);
    Path runc = layout.binDir(VERSION).resolve("runc");
    host.fs().corruptContent(runc, "runc-BINARY".getBytes(StandardCharsets.UTF_8));
    host.fs().coarseTimestamps(false);
    int requests = downloader.requests.size();

    VersionInstaller.Result again = installer.install(rootFs);

    assertThat(again.reused()).isFalse();
    assertThat(downloader.requests.size()).isGreaterThan(requests);
    assertThat(files.readString(runc)).isEqualTo("runc-binary");
  }

  @Test
  void aStampThatDoesNotMatchMakesPrepareReadEveryFile() throws IOException {
    RootFs rootFs = rootFs(new Artifact.Checksum.Unverified(), new Artifact.Checksum.Unverified());
    installer.install(rootFs);
    VersionVerifier verifier = new VersionVerifier(files, layout);
    Manifest stamped = verifier.manifest(VERSION).orElseThrow();
    List<Manifest.Entry> skewed = new ArrayList<>(stamped.files());
    Manifest.Entry first = skewed.get(0);
    FileStamp s = first.stamp().orElseThrow();
    skewed.set(
        0,
        first.withStamp(Optional.of(new FileStamp(s.inode() + 1, s.ctimeNanos(), s.mtimeNanos()))));
    files.writeDurably(layout.manifest(VERSION), new Manifest(VERSION, skewed).toJson(), 0644);

    int readsBefore = host.contentReads().size();
    assertThat(verifier.verifyTrustingStamps(VERSION).verified()).isTrue();

    assertThat(host.contentReads().subList(readsBefore, host.contentReads().size()))
        .hasSize(1 + stamped.files().size());
  }

  private static String sha(String s) {
    return Hashing.sha256().hashString(s, StandardCharsets.UTF_8).toString();
  }

  /** Serves bytes by URL, verifies like the real port, records requests. */
  static final class FakeDownloader implements ArtifactDownloader {
    private final HostFiles files;
    private final Map<URI, byte[]> content = new HashMap<>();
    final List<URI> requests = new ArrayList<>();

    FakeDownloader(HostFiles files) {
      this.files = files;
    }

    void serve(URI url, String text) {
      content.put(url, text.getBytes(StandardCharsets.UTF_8));
    }

    void serve(URI url, byte[] bytes) {
      content.put(url, bytes);
    }

    @Override
    public DownloadResult download(
        URI url,
        Optional<Sha256> expected,
        Path destination,
        long maxBytes,
        DownloadListener listener)
        throws IOException {
      byte[] bytes = fetch(url, maxBytes);
      Sha256 actual = new Sha256(Hashing.sha256().hashBytes(bytes).toString());
      if (expected.isPresent() && !expected.get().equals(actual)) {
        throw new DownloadException(
            url,
            DownloadException.Reason.CHECKSUM_MISMATCH,
            "sha256 " + actual + " does not match the expected " + expected.get());
      }
      files.writeDurably(destination, bytes, 0644);
      return new DownloadResult(destination, actual, bytes.length, bytes.length);
    }

    @Override
    public byte[] fetch(URI url, long maxBytes) throws IOException {
      requests.add(url);
      byte[] bytes = content.get(url);
      if (bytes == null) {
        throw new DownloadException(url, DownloadException.Reason.HTTP_STATUS, "404");
      }
      return bytes.clone();
    }

    @Override
    public int head(URI url, Duration timeout) {
      return content.containsKey(url) ? 200 : 404;
    }
  }

  static final class FixedClock implements HostClock {
    @Override
    public Instant now() {
      return Instant.EPOCH;
    }

    @Override
    public long nanoTime() {
      return 0;
    }

    @Override
    public void sleep(Duration duration) {}
  }
}
