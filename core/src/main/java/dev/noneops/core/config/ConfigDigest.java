package dev.noneops.core.config;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The identity of a configuration: the SHA-256 of its {@linkplain AgentConfigJson#canonical
 * canonical form}. The upgrade journal records the digest of the configuration an upgrade applies
 * (with the node's download overrides written into its {@code Downloads}); at start-up the digest
 * of the applied config tells whether that upgrade finished. The canonical form holds exactly what
 * the applied config holds: {@code Downloads} is covered, since where an artifact comes from is
 * part of the version name, so an upgrade that changes only downloads is told apart like any
 * other; {@code Attest}, which the applied config leaves out, is not. A configuration and the
 * applied config written from it always have the same digest.
 *
 * @param hex 64 lower-case hex characters
 */
public record ConfigDigest(String hex) {
  private static final Pattern HEX = Pattern.compile("[0-9a-f]{64}");

  public ConfigDigest {
    Objects.requireNonNull(hex, "hex");
    if (!HEX.matcher(hex).matches()) {
      throw new IllegalArgumentException("not a SHA-256 config digest: " + ConfigText.quote(hex));
    }
  }

  /** The digest of {@code config} (normalised first). */
  public static ConfigDigest of(AgentConfig config) {
    try {
      byte[] sha = MessageDigest.getInstance("SHA-256").digest(AgentConfigJson.canonical(config));
      return new ConfigDigest(HexFormat.of().formatHex(sha));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime provides SHA-256", e);
    }
  }

  @Override
  public String toString() {
    return "sha256:" + hex;
  }
}
