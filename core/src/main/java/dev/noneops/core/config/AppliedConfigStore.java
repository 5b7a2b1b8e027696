package dev.noneops.core.config;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Persists and reads the applied config ({@link HostPaths#appliedConfig()}) through the
 * {@link HostFiles} port, as upstream does: 2-space indented JSON of the configuration
 * ({@link AgentConfigJson#applied}: with its {@code Downloads}, which name the version it runs,
 * and without {@code Attest}), mode 0600, in a directory created 0750, with a {@code .sha256}
 * sidecar (lower-case hex and a newline) written after it. The configuration to record is the one
 * the node installed ({@code Node.effectiveConfig()}, download overrides included): its
 * {@link dev.noneops.core.config.ConfigDigest} is the one an upgrade journals.
 *
 * <p>Writing first removes the old sidecar, then writes the file, then the new sidecar, each
 * durably. A crash at any point therefore leaves either a matching sidecar or none, never a stale
 * one that would make a correct file look corrupt (upstream overwrites in place and can leave the
 * old sidecar beside the new file). Reading verifies the sidecar: a mismatch is an
 * {@link AppliedConfigChecksumException}; a missing sidecar is logged as a warning and the
 * configuration is returned, as upstream does.
 */
public final class AppliedConfigStore {
  public static final int FILE_MODE = 0600;
  public static final int DIR_MODE = 0750;
  public static final String SIDECAR_SUFFIX = ".sha256";

  private final HostFiles files;
  private final Path path;
  private final Path sidecar;
  private final Logger log;

  public AppliedConfigStore(HostFiles files, HostPaths paths) {
    this(files, paths, LoggerFactory.getLogger(AppliedConfigStore.class));
  }

  /** A store that reports through {@code log} (for callers and tests that route warnings). */
  public AppliedConfigStore(HostFiles files, HostPaths paths, Logger log) {
    this.files = Objects.requireNonNull(files, "files");
    this.path = paths.appliedConfig();
    this.sidecar = sidecarOf(path);
    this.log = Objects.requireNonNull(log, "log");
  }

  /** The applied config's path. */
  public Path path() {
    return path;
  }

  /** The sidecar's path: the applied config's plus {@value #SIDECAR_SUFFIX}. */
  public Path sidecarPath() {
    return sidecar;
  }

  /** Durably records {@code config} (normalised, with its {@code Downloads}, without {@code Attest}) as the applied config. */
  public void write(AgentConfig config) throws IOException {
    byte[] json = AgentConfigJson.applied(config);
    files.createDirectories(path.getParent(), DIR_MODE);
    if (files.exists(sidecar)) {
      files.removeDurably(sidecar);
    }
    files.writeDurably(path, json, FILE_MODE);
    files.writeDurably(
        sidecar, (sha256(json) + "\n").getBytes(StandardCharsets.US_ASCII), FILE_MODE);
    log.info("applied config written path={}", path);
  }

  /**
   * The applied config, or empty when none was written.
   *
   * @throws AppliedConfigChecksumException when the sidecar does not match the file
   * @throws InvalidConfigException when the file is not a configuration this version can read
   * @throws IOException when the file or sidecar cannot be read
   */
  public Optional<AgentConfig> read() throws IOException {
    if (!files.exists(path)) {
      return Optional.empty();
    }
    byte[] json = files.read(path);
    String actual = sha256(json);
    if (files.exists(sidecar)) {
      String expected = files.readString(sidecar).trim().toLowerCase(Locale.ROOT);
      if (!expected.equals(actual)) {
        throw new AppliedConfigChecksumException(path, expected, actual);
      }
    } else {
      log.warn(
          "applied config has no checksum sidecar; using it unverified path={} sidecar={}",
          path,
          sidecar);
    }
    return Optional.of(AgentConfigParser.parse(json));
  }

  /** Durably removes the applied config and then its sidecar; absent files are not an error. */
  public void remove() throws IOException {
    for (Path p : new Path[] {path, sidecar}) {
      if (files.exists(p)) {
        files.removeDurably(p);
      }
    }
  }

  static Path sidecarOf(Path file) {
    return file.resolveSibling(file.getFileName() + SIDECAR_SUFFIX);
  }

  static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime provides SHA-256", e);
    }
  }
}
