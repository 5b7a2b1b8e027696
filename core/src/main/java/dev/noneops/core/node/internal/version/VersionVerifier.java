package dev.noneops.core.node.internal.version;

import dev.noneops.core.layout.Layout;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Checks an installed version directory against its {@code MANIFEST.json}: every listed file is a
 * regular file with the listed size, mode and sha256, and nothing unlisted is there. A directory
 * without a valid manifest is {@link Verification.State#INCOMPLETE} (an install that never
 * finished); one whose files disagree is {@link Verification.State#CORRUPT}.
 *
 * <p>{@link #verify} always reads every file; {@link #verifyTrustingStamps} (for {@code prepare})
 * accepts files whose recorded {@link FileStamp} still matches without reading them.
 */
public final class VersionVerifier {
  private final HostFiles files;
  private final Layout layout;

  public VersionVerifier(HostFiles files, Layout layout) {
    this.files = Objects.requireNonNull(files, "files");
    this.layout = Objects.requireNonNull(layout, "layout");
  }

  /** The outcome of verifying one version. */
  public record Verification(String version, State state, List<String> problems) {
    /** How a version directory relates to its manifest. */
    public enum State {
      /** No directory of that name. */
      ABSENT,
      /** The directory has no valid manifest. */
      INCOMPLETE,
      /** The manifest is valid but files differ from it. */
      CORRUPT,
      /** Every file matches the manifest. */
      VERIFIED
    }

    public Verification {
      problems = List.copyOf(problems);
    }

    public boolean verified() {
      return state == State.VERIFIED;
    }

    /** A one-line explanation for errors and reports. */
    public String describe() {
      return "version " + version + " is " + state.name().toLowerCase(Locale.ROOT)
          + (problems.isEmpty() ? "" : ": " + String.join("; ", problems));
    }
  }

  /** Whether {@code version} is installed, complete and verified. */
  public boolean isCompleteAndVerified(String version) throws IOException {
    return verify(version).verified();
  }

  /** The manifest of {@code version}, if it has a valid one. */
  public Optional<Manifest> manifest(String version) throws IOException {
    Path path = layout.manifest(version);
    Optional<FileMeta> meta = files.lstat(path);
    if (meta.isEmpty() || !meta.get().isRegularFile()) {
      return Optional.empty();
    }
    try {
      Manifest manifest = Manifest.parse(files.read(path));
      return manifest.version().equals(version) ? Optional.of(manifest) : Optional.empty();
    } catch (IOException e) {
      if (e instanceof HostIOException) {
        throw e;
      }
      return Optional.empty();
    }
  }

  /**
   * Reads and hashes every listed file: the check of {@code noneops verify} and of the upgrade's
   * rollback proof, which must notice any change of content, however it came about.
   */
  public Verification verify(String version) throws IOException {
    return inspect(version, false).verification();
  }

  /**
   * {@link #verify}, except that a file whose size, mode and {@link FileStamp} (inode, change and
   * modification time) still match the manifest is trusted without being read: the check
   * {@code prepare} runs before reusing an installed version. A file whose stamp is not older than
   * the manifest itself is read anyway (it may have changed within one tick of the filesystem's
   * clock after it was stamped). Whenever anything differs, or the manifest has no stamps, or the
   * host reports no file times, every file is read and hashed as {@link #verify} does.
   */
  public Verification verifyTrustingStamps(String version) throws IOException {
    return inspect(version, true).verification();
  }

  /**
   * What checking one version found: the verification, the manifest when valid, the metadata of
   * every entry of the version directory as observed before any content was read (by path
   * relative to the directory), and whether the manifest's stamps are current: they matched and
   * none of them had to be read for being as new as the manifest. A verified version whose stamps
   * are not current is worth stamping afresh.
   */
  public record Inspection(
      Verification verification,
      Optional<Manifest> manifest,
      Map<String, FileMeta> observed,
      boolean stampsCurrent) {}

  /** What the stamps alone say about a version. */
  private enum StampCheck {
    /** Something differs or is unknown: every file must be read. */
    INCONCLUSIVE,
    /** Every stamp matches; files stamped as late as the manifest were read and match too. */
    HOLD_AFTER_READING_RECENT,
    /** Every stamp matches and is older than the manifest: nothing was read. */
    HOLD
  }

  public Inspection inspect(String version, boolean trustStamps) throws IOException {
    Path dir = layout.versionDir(version);
    Optional<FileMeta> dirMeta = files.lstat(dir);
    if (dirMeta.isEmpty()) {
      return notVerified(version, Verification.State.ABSENT, List.of());
    }
    if (!dirMeta.get().isDirectory()) {
      return notVerified(
          version,
          Verification.State.INCOMPLETE,
          List.of(dir + " is a " + dirMeta.get().type()));
    }
    Optional<FileMeta> manifestMeta = files.lstat(layout.manifest(version));
    Optional<Manifest> manifest = manifest(version);
    if (manifest.isEmpty()) {
      return notVerified(
          version, Verification.State.INCOMPLETE, List.of("no valid " + Layout.MANIFEST));
    }
    Map<String, FileMeta> observed = new TreeMap<>();
    for (LayoutTrees.Relative e : LayoutTrees.entries(files, dir)) {
      if (!e.path().equals(Layout.MANIFEST)) {
        observed.put(e.path(), e.meta());
      }
    }
    StampCheck stamps = trustStamps && manifestMeta.isPresent()
        ? checkStamps(dir, manifest.get(), manifestMeta.get(), observed)
        : StampCheck.INCONCLUSIVE;
    if (stamps != StampCheck.INCONCLUSIVE) {
      return new Inspection(
          new Verification(version, Verification.State.VERIFIED, List.of()),
          manifest,
          observed,
          stamps == StampCheck.HOLD);
    }
    List<String> problems = new ArrayList<>();
    Map<String, FileMeta> present = new TreeMap<>(observed);
    for (Manifest.Entry expected : manifest.get().files()) {
      FileMeta actual = present.remove(expected.path());
      if (actual == null) {
        problems.add(expected.path() + " is missing");
      } else if (!actual.isRegularFile()) {
        problems.add(expected.path() + " is a " + actual.type() + ", not a regular file");
      } else if (actual.size() != expected.size()) {
        problems.add(
            expected.path() + " has " + actual.size() + " bytes, manifest says " + expected.size());
      } else if ((actual.mode() & 07777) != expected.mode()) {
        problems.add(expected.path() + " has mode " + String.format("%04o", actual.mode() & 07777)
            + ", manifest says " + String.format("%04o", expected.mode()));
      } else {
        String sha = sha256(dir.resolve(expected.path()));
        if (!sha.equals(expected.sha256())) {
          problems.add(
              expected.path() + " has sha256 " + sha + ", manifest says " + expected.sha256());
        }
      }
    }
    present.keySet().forEach(extra -> problems.add(extra + " is not in the manifest"));
    Verification verification = new Verification(
        version,
        problems.isEmpty() ? Verification.State.VERIFIED : Verification.State.CORRUPT,
        problems);
    return new Inspection(verification, manifest, observed, false);
  }

  private static Inspection notVerified(
      String version, Verification.State state, List<String> problems) {
    return new Inspection(
        new Verification(version, state, problems), Optional.empty(), Map.of(), false);
  }

  /**
   * Whether every file is exactly the one listed and stamped: the same set of paths, each a
   * regular file of the listed size and mode whose stamp matches. Files stamped within the
   * manifest's own change time (not strictly before it) are hashed, since a change in the same
   * clock tick as the stamp would not move the change time.
   */
  private StampCheck checkStamps(
      Path dir, Manifest manifest, FileMeta manifestMeta, Map<String, FileMeta> observed)
      throws IOException {
    if (!manifestMeta.hasTimes()
        || !manifest.fullyStamped()
        || observed.size() != manifest.files().size()) {
      return StampCheck.INCONCLUSIVE;
    }
    List<Manifest.Entry> racy = new ArrayList<>();
    for (Manifest.Entry expected : manifest.files()) {
      FileMeta actual = observed.get(expected.path());
      FileStamp stamp = expected.stamp().orElseThrow();
      if (actual == null
          || !actual.isRegularFile()
          || actual.size() != expected.size()
          || (actual.mode() & 07777) != expected.mode()
          || !stamp.matches(actual)) {
        return StampCheck.INCONCLUSIVE;
      }
      if (stamp.ctimeNanos() >= manifestMeta.ctimeNanos()) {
        racy.add(expected);
      }
    }
    for (Manifest.Entry expected : racy) {
      if (!sha256(dir.resolve(expected.path())).equals(expected.sha256())) {
        return StampCheck.INCONCLUSIVE;
      }
    }
    return racy.isEmpty() ? StampCheck.HOLD : StampCheck.HOLD_AFTER_READING_RECENT;
  }

  private String sha256(Path file) throws IOException {
    MessageDigest digest = SafeTarExtractor.sha256();
    byte[] buffer = new byte[64 * 1024];
    try (InputStream in = files.openRead(file)) {
      int n;
      while ((n = in.read(buffer)) > 0) {
        digest.update(buffer, 0, n);
      }
    }
    return HexFormat.of().formatHex(digest.digest());
  }
}
