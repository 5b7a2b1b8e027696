package dev.noneops.core.goalstate;

import java.net.URI;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One downloadable artifact of a version and how it is installed.
 *
 * @param name a stable name, e.g. {@code kubelet}, {@code containerd}, {@code cni-plugins}
 * @param url where it is fetched from
 * @param checksum how its SHA-256 is known
 * @param install how it is laid out in the version directory
 */
public record Artifact(String name, URI url, Checksum checksum, Install install) {
  public Artifact {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(checksum, "checksum");
    Objects.requireNonNull(install, "install");
  }

  /** Where an artifact's expected SHA-256 comes from. */
  public sealed interface Checksum {
    /**
     * The digest is published in the document at {@code url}, beside the artifact's path (its
     * query kept) unless the configuration names the document's own URL
     * ({@code Downloads.<X>.SHA256URL}): a bare hex
     * digest (Kubernetes' {@code .sha256}) or {@code sha256sum} lines {@code <hex>  <file>}
     * (containerd's {@code .sha256sum}, the CNI plugins', crictl's and CoreDNS' {@code .sha256});
     * of a document listing several files (runc's {@code runc.sha256sum}, one line per
     * architecture) the line naming {@code entry} is used.
     *
     * @param entry the artifact's file name as such a document lists it; {@code ""} when the
     *     document holds one digest
     * @param unverifiedAllowed when the document cannot be fetched, the artifact is installed
     *     without a digest instead of being refused (the configuration's {@code AllowUnverified})
     * @param advice what the refusal of an artifact whose document cannot be had tells the
     *     operator to set, e.g. {@link #ADVICE}
     */
    record Published(URI url, String entry, boolean unverifiedAllowed, String advice)
        implements Checksum {
      /** The advice of an artifact whose configuration entry is not known. */
      public static final String ADVICE =
          "pin its digest (Downloads.<artifact>.SHA256) or allow it unverified (Downloads.<artifact>.AllowUnverified)";

      public Published {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(entry, "entry");
        Objects.requireNonNull(advice, "advice");
      }

      /** A document whose refusal gives the general {@link #ADVICE}. */
      public Published(URI url, String entry, boolean unverifiedAllowed) {
        this(url, entry, unverifiedAllowed, ADVICE);
      }

      /** A required document holding one digest. */
      public Published(URI url) {
        this(url, "", false);
      }
    }

    /** The digest is given in configuration ({@code Downloads.<X>.SHA256}). */
    record Pinned(String sha256Hex) implements Checksum {}

    /**
     * No digest is known or looked for; the download is recorded in the manifest but not verified
     * upstream. The resolver never yields it (an artifact allowed unverified is still
     * {@link Published}, its checksum checked when it is there); goal states built by hand may.
     */
    record Unverified() implements Checksum {}
  }

  /** How an artifact becomes files of a version directory. */
  public sealed interface Install {
    /** The download is one executable installed at {@code bin/<fileName>}. */
    record Binary(String fileName) implements Install {}

    /**
     * The download is a gzip'ed tarball; its regular files whose entry path starts with
     * {@code entryPrefix} (after stripping it) are installed below {@code targetDir}
     * ({@code bin} or {@code libexec/cni}), optionally only those named in {@code only}.
     */
    record Tarball(String entryPrefix, String targetDir, List<String> only) implements Install {
      public Tarball {
        Objects.requireNonNull(entryPrefix, "entryPrefix");
        Objects.requireNonNull(targetDir, "targetDir");
        only = List.copyOf(only);
      }
    }
  }

  /** The pinned digest, if any. */
  public Optional<String> pinnedSha256() {
    return checksum instanceof Checksum.Pinned p ? Optional.of(p.sha256Hex()) : Optional.empty();
  }
}
