package dev.noneops.core.install;

import dev.noneops.core.layout.Layout;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Checks an installed version directory against its {@code MANIFEST.json}: every listed file is a
 * regular file with the listed size, mode and sha256, and nothing unlisted is there. A directory
 * without a valid manifest is {@link Verification.State#INCOMPLETE} (an install that never
 * finished); one whose files disagree is {@link Verification.State#CORRUPT}.
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
      return "version " + version + " is " + state.name().toLowerCase(java.util.Locale.ROOT)
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
      if (e instanceof dev.noneops.ports.HostIOException) {
        throw e;
      }
      return Optional.empty();
    }
  }

  public Verification verify(String version) throws IOException {
    Path dir = layout.versionDir(version);
    Optional<FileMeta> dirMeta = files.lstat(dir);
    if (dirMeta.isEmpty()) {
      return new Verification(version, Verification.State.ABSENT, List.of());
    }
    if (!dirMeta.get().isDirectory()) {
      return new Verification(version, Verification.State.INCOMPLETE, List.of(dir + " is a " + dirMeta.get().type()));
    }
    Optional<Manifest> manifest = manifest(version);
    if (manifest.isEmpty()) {
      return new Verification(version, Verification.State.INCOMPLETE, List.of("no valid " + Layout.MANIFEST));
    }
    List<String> problems = new ArrayList<>();
    Map<String, LayoutTrees.Relative> present = LayoutTrees.entries(files, dir).stream()
        .filter(e -> !e.path().equals(Layout.MANIFEST))
        .collect(Collectors.toMap(LayoutTrees.Relative::path, Function.identity()));
    for (Manifest.Entry expected : manifest.get().files()) {
      LayoutTrees.Relative actual = present.remove(expected.path());
      if (actual == null) {
        problems.add(expected.path() + " is missing");
      } else if (!actual.meta().isRegularFile()) {
        problems.add(expected.path() + " is a " + actual.meta().type() + ", not a regular file");
      } else if (actual.meta().size() != expected.size()) {
        problems.add(expected.path() + " has " + actual.meta().size() + " bytes, manifest says " + expected.size());
      } else if ((actual.meta().mode() & 07777) != expected.mode()) {
        problems.add(expected.path() + " has mode " + String.format("%04o", actual.meta().mode() & 07777)
            + ", manifest says " + String.format("%04o", expected.mode()));
      } else {
        String sha = sha256(dir.resolve(expected.path()));
        if (!sha.equals(expected.sha256())) {
          problems.add(expected.path() + " has sha256 " + sha + ", manifest says " + expected.sha256());
        }
      }
    }
    present.keySet().stream().sorted().forEach(extra -> problems.add(extra + " is not in the manifest"));
    return new Verification(version, problems.isEmpty() ? Verification.State.VERIFIED : Verification.State.CORRUPT, problems);
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
