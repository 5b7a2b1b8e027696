package dev.noneops.core.node.internal.version;

import dev.noneops.core.goalstate.Artifact;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.files.HostFiles;
import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;

/**
 * Extracts a gzip'ed tarball into a version directory safely. Every entry's name is checked
 * first: an absolute path, a {@code ..} component, a backslash or NUL, or a symbolic or hard link
 * pointing out of the tree makes the whole archive refused ({@link UnsafeArchiveException}).
 * Only regular files are installed; directories are created as needed, links inside the tree,
 * devices and FIFOs are skipped. An installed file's mode is 0755 when the entry has any execute
 * bit and 0644 otherwise: setuid, setgid, sticky and group/world write bits never survive. The
 * total size and number of entries are bounded.
 */
public final class SafeTarExtractor {
  /** Most bytes one archive may expand to. */
  public static final long MAX_EXTRACTED_BYTES = 4L << 30;
  /** Most entries one archive may hold. */
  public static final int MAX_ENTRIES = 20_000;

  private final HostFiles files;

  public SafeTarExtractor(HostFiles files) {
    this.files = files;
  }

  /**
   * Extracts the tarball at {@code archive} into {@code versionDir} as {@code install} says.
   *
   * @return the installed files, relative to {@code versionDir}, with size, mode and sha256
   */
  public List<Manifest.Entry> extract(
      Path archive, String archiveName, Path versionDir, Artifact.Install.Tarball install)
      throws IOException {
    List<String> target = ArchivePaths.components(install.targetDir());
    List<String> prefix = install.entryPrefix().isEmpty()
        ? List.of()
        : ArchivePaths.components(install.entryPrefix());
    List<Manifest.Entry> installed = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    long total = 0;
    int count = 0;
    try (InputStream raw = files.openRead(archive);
        GzipCompressorInputStream gz = GzipCompressorInputStream.builder()
            .setInputStream(new BufferedInputStream(raw))
            .setDecompressConcatenated(true)
            .get();
        TarArchiveInputStream tar = new TarArchiveInputStream(gz)) {
      TarArchiveEntry entry;
      while ((entry = tar.getNextEntry()) != null) {
        if (++count > MAX_ENTRIES) {
          throw new UnsafeArchiveException(
              archiveName, entry.getName(), "more than " + MAX_ENTRIES + " entries");
        }
        String name = entry.getName();
        List<String> parts;
        try {
          parts = ArchivePaths.components(name);
        } catch (IllegalArgumentException e) {
          throw new UnsafeArchiveException(archiveName, name, e.getMessage());
        }
        if (entry.isSymbolicLink() || entry.isLink()) {
          if (!ArchivePaths.linkStaysInside(parts, entry.getLinkName(), entry.isLink())) {
            throw new UnsafeArchiveException(
                archiveName, name, "link points out of the tree: " + entry.getLinkName());
          }
          continue;
        }
        if (!isRegularFile(entry) || parts.isEmpty()) {
          continue;
        }
        String normalized = String.join("/", parts);
        if (!seen.add(normalized)) {
          throw new UnsafeArchiveException(archiveName, name, "appears twice");
        }
        if (parts.size() <= prefix.size() || !parts.subList(0, prefix.size()).equals(prefix)) {
          continue;
        }
        List<String> rest = parts.subList(prefix.size(), parts.size());
        if (!install.only().isEmpty() && !install.only().contains(String.join("/", rest))) {
          continue;
        }
        total += entry.getSize();
        if (total > MAX_EXTRACTED_BYTES) {
          throw new UnsafeArchiveException(
              archiveName, name, "archive expands beyond " + MAX_EXTRACTED_BYTES + " bytes");
        }
        List<String> relParts = new ArrayList<>(target);
        relParts.addAll(rest);
        String rel = String.join("/", relParts);
        Path destination = versionDir.resolve(rel);
        files.createDirectories(destination.getParent(), 0755);
        int mode = (entry.getMode() & 0111) != 0 ? 0755 : 0644;
        MessageDigest digest = sha256();
        long written = files.writeDurably(
            destination, new DigestInputStream(new Unclosable(tar), digest), mode);
        installed.add(
            new Manifest.Entry(rel, written, mode, HexFormat.of().formatHex(digest.digest())));
      }
    } catch (UnsafeArchiveException e) {
      throw e;
    } catch (IOException e) {
      if (e instanceof HostIOException) {
        throw e;
      }
      throw new UnsafeArchiveException(
          archiveName, "(stream)", "not a readable gzip'ed tar archive: " + e.getMessage());
    }
    if (!install.only().isEmpty()) {
      for (String wanted : install.only()) {
        List<String> wantedParts = new ArrayList<>(target);
        wantedParts.addAll(ArchivePaths.components(wanted));
        String rel = String.join("/", wantedParts);
        if (installed.stream().noneMatch(e -> e.path().equals(rel))) {
          throw new UnsafeArchiveException(
              archiveName, wanted, "expected file is missing from the archive");
        }
      }
    }
    return installed;
  }

  /** Only plain file entries count; devices, FIFOs and other types are not installed. */
  private static boolean isRegularFile(TarArchiveEntry entry) {
    byte flag = entry.getLinkFlag();
    return (flag == TarConstants.LF_NORMAL
            || flag == TarConstants.LF_OLDNORM
            || flag == TarConstants.LF_CONTIG)
        && !entry.getName().endsWith("/");
  }

  public static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }

  /** Keeps the tar stream open when a consumer closes the stream of one entry. */
  private static final class Unclosable extends FilterInputStream {
    Unclosable(InputStream in) {
      super(in);
    }

    @Override
    public void close() {
      // the archive stream is closed by its owner
    }
  }
}
