package dev.noneops.acceptance.node;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a real directory tree holds, entry by entry (type, permissions, sha256 of content or link
 * target), without following symlinks but crossing mounts: two images are equal exactly when the
 * trees are byte-identical.
 */
final class TreeImage {
  private TreeImage() {}

  /** Relative path (empty for the root) → description; empty when {@code root} does not exist. */
  static SortedMap<String, String> of(Path root) throws IOException {
    SortedMap<String, String> image = new TreeMap<>();
    if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
      return image;
    }
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs)
          throws IOException {
        image.put(root.relativize(dir).toString(), "dir " + perms(dir));
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        String key = root.relativize(file).toString();
        if (attrs.isSymbolicLink()) {
          image.put(key, "link -> " + Files.readSymbolicLink(file));
        } else if (attrs.isRegularFile()) {
          image.put(key, "file " + perms(file) + " sha256:" + sha256(Files.readAllBytes(file)));
        } else {
          image.put(key, "other " + perms(file));
        }
        return FileVisitResult.CONTINUE;
      }
    });
    return image;
  }

  static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String perms(Path p) {
    try {
      return PosixFilePermissions.toString(
          Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
