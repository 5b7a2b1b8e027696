package dev.noneops.core.node.internal.version;

import dev.noneops.core.goalstate.Artifact;
import dev.noneops.core.goalstate.RootFs;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.InstallException;
import dev.noneops.core.node.internal.task.Task;
import dev.noneops.core.node.internal.task.TaskRunner;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.download.ArtifactDownloader;
import dev.noneops.ports.download.DownloadException;
import dev.noneops.ports.download.DownloadListener;
import dev.noneops.ports.download.DownloadResult;
import dev.noneops.ports.download.Sha256;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * Installs a version directory ({@code Prepare}'s machinery).
 *
 * <ol>
 *   <li>Crash leftovers are cleaned: the staging directory and temp files in the layout root.
 *   <li>A complete, verified version directory is reused: nothing is downloaded. Files whose
 *       size, mode and {@link FileStamp} still match the manifest are trusted without being read
 *       ({@link VersionVerifier#verifyTrustingStamps}); when anything differs, every file is
 *       hashed, and a version that passes that full check has its manifest stamped afresh so the
 *       next prepare is cheap again. An incomplete one (no valid manifest) or a corrupt one that
 *       {@code current} does not point at is removed and installed again; a corrupt active
 *       version is an error.
 *   <li>Every artifact is downloaded into {@code .staging/<version>} with its checksum verified
 *       ({@link Artifact.Checksum.Pinned}; {@link Artifact.Checksum.Published}: the digest the
 *       published document gives for the artifact's file ({@link ChecksumDocument}); a document
 *       that cannot be fetched refuses the artifact, naming its URL, unless the configuration
 *       allows it unverified; {@link Artifact.Checksum.Unverified}: none), and
 *       binaries or tarball contents are laid out below {@code bin} and {@code libexec/cni}.
 *   <li>{@code MANIFEST.json} is written last and durably, with every file's stamp as
 *       {@code lstat} reports it once the file is in place; then the staged directory is renamed
 *       to {@code <layout>/<version>} durably. Downloaded tarballs are scratch: they are removed
 *       once extracted, so they are fetched without fsync
 *       ({@link ArtifactDownloader#downloadScratch}); everything that stays is written durably.
 * </ol>
 *
 * A failure leaves no version directory; the staging directory is removed (and, should that fail
 * too, by the next run).
 */
public final class VersionInstaller {
  /** Largest artifact accepted. */
  public static final long MAX_ARTIFACT_BYTES = 1L << 30;
  /** Largest published checksum document accepted. */
  public static final long MAX_CHECKSUM_BYTES = 64 * 1024;

  public static final String DOWNLOADS = ".downloads";
  private static final Pattern SIMPLE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._+-]*");

  private final HostFiles files;
  private final ArtifactDownloader downloader;
  private final Layout layout;
  private final TaskRunner runner;
  private final VersionVerifier verifier;
  private final SafeTarExtractor extractor;

  public VersionInstaller(
      HostFiles files, ArtifactDownloader downloader, Layout layout, TaskRunner runner) {
    this.files = Objects.requireNonNull(files, "files");
    this.downloader = Objects.requireNonNull(downloader, "downloader");
    this.layout = Objects.requireNonNull(layout, "layout");
    this.runner = Objects.requireNonNull(runner, "runner");
    this.verifier = new VersionVerifier(files, layout);
    this.extractor = new SafeTarExtractor(files);
  }

  /** What {@link #install} did. */
  public record Result(String version, Path directory, boolean reused, long bytesDownloaded) {}

  /**
   * Makes sure {@code rootFs}'s version is installed and verified.
   *
   * @throws InstallException when an artifact fails, located at its {@code download-<artifact>}
   *     task
   */
  public Result install(RootFs rootFs) throws IOException {
    String version = rootFs.versionName();
    Path dir = layout.versionDir(version);
    files.createDirectories(layout.root(), 0755);
    cleanLeftovers();

    VersionVerifier.Inspection inspection = verifier.inspect(version, true);
    VersionVerifier.Verification existing = inspection.verification();
    switch (existing.state()) {
      case VERIFIED -> {
        if (!inspection.stampsCurrent()) {
          restamp(version, inspection);
        }
        return new Result(version, dir, true, 0);
      }
      case ABSENT -> {}
      case INCOMPLETE, CORRUPT -> {
        if (isActive(version)) {
          throw new InstallException(
              version,
              InstallException.Reason.CORRUPT,
              "the active version does not match its manifest and is not replaced under the running node: "
                  + existing.describe(),
              null);
        }
        LayoutTrees.remove(files, dir);
      }
    }

    Path staged = layout.staging().resolve(version);
    try {
      long transferred = stageAndMove(rootFs, staged, dir);
      return new Result(version, dir, false, transferred);
    } catch (IOException | RuntimeException e) {
      try {
        LayoutTrees.remove(files, layout.staging());
      } catch (IOException | RuntimeException cleanup) {
        e.addSuppressed(cleanup);
      }
      throw e;
    }
  }

  private long stageAndMove(RootFs rootFs, Path staged, Path dir) throws IOException {
    String version = rootFs.versionName();
    files.createDirectories(staged.resolve(Layout.BIN), 0755);
    files.createDirectories(staged.resolve(Layout.CNI), 0755);
    files.createDirectories(staged.resolve(DOWNLOADS), 0700);
    List<Manifest.Entry> entries = Collections.synchronizedList(new ArrayList<>());
    AtomicLong transferred = new AtomicLong();
    List<Task> downloads = new ArrayList<>();
    for (Artifact artifact : rootFs.artifacts()) {
      downloads.add(Task.of(
          "download-" + artifact.name(),
          () -> transferred.addAndGet(installArtifact(version, staged, artifact, entries))));
    }
    runner.execute(runner.parallel("download", downloads));
    LayoutTrees.remove(files, staged.resolve(DOWNLOADS));
    List<Manifest.Entry> stamped = new ArrayList<>();
    for (Manifest.Entry entry : entries) {
      FileMeta meta = files
          .lstat(staged.resolve(entry.path()))
          .orElseThrow(() -> new InstallException(
              version,
              InstallException.Reason.FILES,
              "installed file vanished before the manifest was written: " + entry.path(),
              null));
      stamped.add(entry.withStamp(FileStamp.of(meta)));
    }
    files.writeDurably(
        staged.resolve(Layout.MANIFEST), new Manifest(version, stamped).toJson(), 0644);
    files.renameDurably(staged, dir);
    removeStagingIfEmpty();
    return transferred.get();
  }

  /**
   * Rewrites the manifest of a verified version whose stamps were not current with the stamps its
   * files had before they were read, so that the next prepare trusts them without reading (the
   * rewritten manifest is newer than every stamp). A file changed while it was being read has a
   * newer change time than its stamp and is read again next time. Nothing is written when the
   * host reports no file times.
   */
  private void restamp(String version, VersionVerifier.Inspection inspection) throws IOException {
    Manifest manifest = inspection.manifest().orElseThrow();
    List<Manifest.Entry> stamped = new ArrayList<>();
    for (Manifest.Entry entry : manifest.files()) {
      Optional<FileStamp> stamp = FileStamp.of(inspection.observed().get(entry.path()));
      if (stamp.isEmpty()) {
        return;
      }
      stamped.add(entry.withStamp(stamp));
    }
    files.writeDurably(layout.manifest(version), new Manifest(version, stamped).toJson(), 0644);
  }

  /** Removes what a crashed install left: the staging directory and temp entries in the layout root. */
  public void cleanLeftovers() throws IOException {
    LayoutTrees.remove(files, layout.staging());
    if (!files.exists(layout.root())) {
      return;
    }
    boolean removed = false;
    for (String name : files.list(layout.root())) {
      if (name.startsWith(HostFiles.TEMP_PREFIX)) {
        files.delete(layout.root().resolve(name));
        removed = true;
      }
    }
    if (removed) {
      files.syncDirectory(layout.root());
    }
  }

  private boolean isActive(String version) throws IOException {
    Optional<FileMeta> current = files.lstat(layout.current());
    return current.isPresent()
        && current.get().isSymlink()
        && version.equals(
            String.valueOf(Path.of(files.readLink(layout.current())).getFileName()));
  }

  private long installArtifact(
      String version, Path staged, Artifact artifact, List<Manifest.Entry> entries)
      throws IOException {
    if (!SIMPLE_NAME.matcher(artifact.name()).matches()) {
      throw new InstallException(
          version,
          InstallException.Reason.FILES,
          "artifact name is not a file name: '" + artifact.name() + "'",
          null);
    }
    Optional<Sha256> expected = expectedDigest(version, artifact);
    Path download = staged.resolve(DOWNLOADS).resolve(artifact.name());
    DownloadResult result;
    try {
      DownloadListener listener = (url, received, total) -> runner.progress(
          "download-" + artifact.name(),
          Map.of(
              "url",
              url.toString(),
              "received",
              Long.toString(received),
              "total",
              Long.toString(total)));
      result = artifact.install() instanceof Artifact.Install.Binary
          ? downloader.download(artifact.url(), expected, download, MAX_ARTIFACT_BYTES, listener)
          : downloader.downloadScratch(
              artifact.url(), expected, download, MAX_ARTIFACT_BYTES, listener);
    } catch (DownloadException e) {
      InstallException.Reason reason = e.reason() == DownloadException.Reason.CHECKSUM_MISMATCH
          ? InstallException.Reason.CHECKSUM_MISMATCH
          : InstallException.Reason.DOWNLOAD;
      throw new InstallException(
          version,
          reason,
          "artifact " + artifact.name() + " from " + artifact.url() + ": " + e.getMessage(),
          e);
    }
    if (expected.isPresent() && !expected.get().equals(result.sha256())) {
      throw new InstallException(
          version,
          InstallException.Reason.CHECKSUM_MISMATCH,
          "artifact " + artifact.name() + " from " + artifact.url() + ": sha256 " + result.sha256()
              + ", expected " + expected.get(),
          null);
    }
    if (artifact.install() instanceof Artifact.Install.Binary binary) {
      if (!SIMPLE_NAME.matcher(binary.fileName()).matches()) {
        throw new InstallException(
            version,
            InstallException.Reason.FILES,
            "binary name is not a file name: '" + binary.fileName() + "'",
            null);
      }
      String rel = Layout.BIN + "/" + binary.fileName();
      files.chmodDurably(download, 0755);
      files.renameDurably(download, staged.resolve(rel));
      entries.add(new Manifest.Entry(rel, result.bytes(), 0755, result.sha256().hex()));
    } else {
      Artifact.Install.Tarball tarball = (Artifact.Install.Tarball) artifact.install();
      try {
        entries.addAll(extractor.extract(
            download, artifact.name() + " (" + artifact.url() + ")", staged, tarball));
      } catch (UnsafeArchiveException e) {
        throw new InstallException(version, InstallException.Reason.ARCHIVE, e.getMessage(), e);
      }
      files.delete(download);
    }
    return result.bytesTransferred();
  }

  private Optional<Sha256> expectedDigest(String version, Artifact artifact) throws IOException {
    Artifact.Checksum checksum = artifact.checksum();
    if (checksum instanceof Artifact.Checksum.Pinned pinned) {
      return Optional.of(parseDigest(version, artifact, pinned.sha256Hex(), "pinned checksum"));
    }
    if (checksum instanceof Artifact.Checksum.Published published) {
      byte[] document;
      try {
        document = downloader.fetch(published.url(), MAX_CHECKSUM_BYTES);
      } catch (HostIOException e) {
        throw e;
      } catch (IOException e) {
        return unverifiable(
            version, artifact, published, "could not be fetched: " + e.getMessage(), e);
      }
      Optional<String> hex = ChecksumDocument.digestOf(
          new String(document, StandardCharsets.UTF_8), published.entry());
      if (hex.isEmpty()) {
        return unverifiable(
            version, artifact, published, "lists no digest for " + published.entry(), null);
      }
      return Optional.of(
          parseDigest(version, artifact, hex.get(), "checksum published at " + published.url()));
    }
    return Optional.empty();
  }

  /**
   * An artifact whose published checksum cannot be had: installed without a digest when the
   * configuration allows it (the download's progress says so), else refused naming both URLs.
   */
  private Optional<Sha256> unverifiable(
      String version,
      Artifact artifact,
      Artifact.Checksum.Published published,
      String why,
      Exception cause)
      throws InstallException {
    if (published.unverifiedAllowed()) {
      runner.progress(
          "download-" + artifact.name(),
          Map.of(
              "url",
              artifact.url().toString(),
              "warning",
              "installed unverified, as the configuration allows: its published checksum "
                  + published.url() + " " + why));
      return Optional.empty();
    }
    throw new InstallException(
        version,
        InstallException.Reason.CHECKSUM_UNAVAILABLE,
        "artifact " + artifact.name() + " from " + artifact.url()
            + " cannot be verified: its published checksum " + published.url() + " " + why
            + "; " + published.advice(),
        cause);
  }

  private static Sha256 parseDigest(String version, Artifact artifact, String hex, String what)
      throws InstallException {
    try {
      return new Sha256(hex);
    } catch (IllegalArgumentException e) {
      throw new InstallException(
          version,
          InstallException.Reason.CHECKSUM_UNAVAILABLE,
          "artifact " + artifact.name() + ": " + what + " is not a sha256: '" + hex + "'",
          e);
    }
  }

  private void removeStagingIfEmpty() throws IOException {
    if (files.exists(layout.staging()) && files.list(layout.staging()).isEmpty()) {
      files.removeDurably(layout.staging());
    }
  }
}
