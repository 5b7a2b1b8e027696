package dev.noneops.core.node.internal.teardown;

import dev.noneops.core.node.internal.teardown.BoltDatabase.BoltFormatException;
import dev.noneops.core.node.internal.teardown.BoltDatabase.Bucket;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The namespaces containerd's metadata database ({@value #METADATA} below its data directory)
 * holds, read from the file itself, so the answer needs no running containerd (a teardown reads
 * it after the stack is stopped): every client of one containerd (kubelet's CRI in {@code k8s.io},
 * Docker in {@code moby}, {@code ctr} in {@code default}) keeps its containers, images, leases
 * and the keys of its snapshots there, in a bucket of its namespace below {@code v1}.
 */
public final class ContainerdNamespaces {
  /** The metadata database, below containerd's data directory. */
  public static final String METADATA = "io.containerd.metadata.v1.bolt/meta.db";

  private static final String SCHEMA = "v1";
  private static final List<String> KINDS =
      List.of("containers", "images", "snapshots", "leases", "sandboxes");

  private final HostFiles files;
  private final Path database;

  public ContainerdNamespaces(HostFiles files, Path dataDir) {
    this.files = Objects.requireNonNull(files, "files");
    this.database = Objects.requireNonNull(dataDir, "dataDir").resolve(METADATA);
  }

  /** Where the database is read. */
  public Path database() {
    return database;
  }

  /**
   * Each namespace with what it holds ({@code "2 containers, 1 images, 3 snapshots"}; {@code
   * "only its name and labels"} for a namespace holding none of those), sorted by name; empty when there is
   * no database.
   *
   * @throws IOException when the database cannot be read, is not a regular file, or is no
   *     containerd metadata this reader understands: then what it holds is unknown
   */
  public SortedMap<String, String> list() throws IOException {
    Optional<FileMeta> meta = files.lstat(database);
    if (meta.isEmpty()) {
      return new TreeMap<>();
    }
    if (!meta.get().isRegularFile()) {
      throw new IOException(database + " is not a regular file");
    }
    try {
      BoltDatabase db = BoltDatabase.of(files.read(database));
      Optional<Bucket> schema = db.root().bucket(SCHEMA);
      SortedMap<String, String> out = new TreeMap<>();
      if (schema.isEmpty()) {
        return out;
      }
      for (String name : schema.get().buckets()) {
        out.put(name, describe(schema.get().bucket(name).orElseThrow()));
      }
      return out;
    } catch (BoltFormatException | IndexOutOfBoundsException e) {
      throw new IOException(
          database + " is no containerd metadata this teardown can read: " + e.getMessage(), e);
    }
  }

  private static String describe(Bucket namespace) throws BoltFormatException {
    List<String> parts = new ArrayList<>();
    for (String kind : KINDS) {
      Optional<Bucket> bucket = namespace.bucket(kind);
      if (bucket.isEmpty()) {
        continue;
      }
      int count = 0;
      if (kind.equals("snapshots")) {
        for (String snapshotter : bucket.get().buckets()) {
          count += bucket.get().bucket(snapshotter).orElseThrow().size();
        }
      } else {
        count = bucket.get().size();
      }
      if (count > 0) {
        parts.add(count + " " + kind);
      }
    }
    Optional<Bucket> content = namespace.bucket("content");
    Optional<Bucket> blobs =
        content.isEmpty() ? Optional.empty() : content.get().bucket("blob");
    if (blobs.isPresent() && blobs.get().size() > 0) {
      parts.add(blobs.get().size() + " content blobs");
    }
    return parts.isEmpty() ? "only its name and labels" : String.join(", ", parts);
  }
}
