package dev.noneops.core.node.internal.teardown;

import dev.noneops.core.NoneopsException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A read-only view of a bbolt database file (the format of containerd's metadata), enough to walk
 * its buckets: of the two meta pages the valid one with the higher transaction id names the root
 * bucket, and a bucket is a B+tree of branch and leaf pages, or a page inline in its parent's
 * value. Every offset is checked against the file, so a damaged or torn file is a {@link
 * BoltFormatException}, never a guess; nothing is written.
 */
public final class BoltDatabase {
  private static final int MAGIC = 0xED0CDAED;
  private static final int VERSION = 2;
  private static final int PAGE_HEADER = 16;
  private static final int ELEMENT = 16;
  private static final int META_CHECKSUMMED = 56;
  private static final int BRANCH_PAGE = 0x01;
  private static final int LEAF_PAGE = 0x02;
  private static final int BUCKET_LEAF = 0x01;
  private static final int BUCKET_HEADER = 16;
  private static final long FNV_OFFSET = 0xcbf29ce484222325L;
  private static final long FNV_PRIME = 0x100000001b3L;

  private final ByteBuffer file;
  private final int pageSize;
  private final long rootPage;

  private BoltDatabase(ByteBuffer file, int pageSize, long rootPage) {
    this.file = file;
    this.pageSize = pageSize;
    this.rootPage = rootPage;
  }

  /** The database in {@code bytes}, from its newest valid meta page. */
  public static BoltDatabase of(byte[] bytes) throws BoltFormatException {
    ByteBuffer file = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asReadOnlyBuffer();
    file.order(ByteOrder.LITTLE_ENDIAN);
    Optional<long[]> first = meta(file, 0);
    int pageSize = first.map(m -> (int) m[0]).orElse(4096);
    Optional<long[]> second = meta(file, pageSize);
    long[] chosen;
    if (first.isPresent() && second.isPresent()) {
      chosen = second.get()[2] > first.get()[2] ? second.get() : first.get();
    } else {
      chosen =
          first.or(() -> second).orElseThrow(() -> new BoltFormatException("no valid meta page"));
    }
    return new BoltDatabase(file, (int) chosen[0], chosen[1]);
  }

  /** The top-level bucket. */
  public Bucket root() {
    return new Bucket(rootPage, -1);
  }

  /** {pageSize, root page, txid} of the meta page at {@code offset}, when it is valid. */
  private static Optional<long[]> meta(ByteBuffer file, int offset) {
    int meta = offset + PAGE_HEADER;
    if (offset < 0 || meta + META_CHECKSUMMED + 8 > file.capacity()) {
      return Optional.empty();
    }
    long hash = FNV_OFFSET;
    for (int i = 0; i < META_CHECKSUMMED; i++) {
      hash ^= file.get(meta + i) & 0xff;
      hash *= FNV_PRIME;
    }
    int size = file.getInt(meta + 8);
    if (file.getInt(meta) != MAGIC
        || file.getInt(meta + 4) != VERSION
        || hash != file.getLong(meta + META_CHECKSUMMED)
        || size < 512
        || Integer.bitCount(size) != 1) {
      return Optional.empty();
    }
    return Optional.of(new long[] {size, file.getLong(meta + 16), file.getLong(meta + 48)});
  }

  /**
   * One bucket: a root page of the file, or (when {@code inline} is not negative) the page that
   * starts at that offset inside its parent's value.
   */
  public final class Bucket {
    private final long page;
    private final int inline;

    private Bucket(long page, int inline) {
      this.page = page;
      this.inline = inline;
    }

    /** The names of the buckets directly in this one, in key order. */
    List<String> buckets() throws BoltFormatException {
      List<String> names = new ArrayList<>();
      for (Entry e : entries()) {
        if (e.bucket()) {
          names.add(e.key());
        }
      }
      return names;
    }

    /** How many keys (buckets and values) are directly in this bucket. */
    int size() throws BoltFormatException {
      return entries().size();
    }

    /** The bucket named {@code name} directly in this one. */
    Optional<Bucket> bucket(String name) throws BoltFormatException {
      for (Entry e : entries()) {
        if (e.bucket() && e.key().equals(name)) {
          return Optional.of(child(e));
        }
      }
      return Optional.empty();
    }

    private Bucket child(Entry e) throws BoltFormatException {
      if (e.valueLength() < BUCKET_HEADER) {
        throw new BoltFormatException("bucket " + e.key() + " has a value of " + e.valueLength());
      }
      long root = file.getLong(e.value());
      if (root != 0) {
        return new Bucket(root, -1);
      }
      if (e.valueLength() < BUCKET_HEADER + PAGE_HEADER) {
        throw new BoltFormatException("inline bucket " + e.key() + " is cut short");
      }
      return new Bucket(0, e.value() + BUCKET_HEADER);
    }

    private List<Entry> entries() throws BoltFormatException {
      List<Entry> out = new ArrayList<>();
      if (inline >= 0) {
        collect(inline, inline + 0L, out, new HashSet<>());
      } else {
        collect(pageOffset(page), page, out, new HashSet<>());
      }
      return out;
    }

    private void collect(int offset, long id, List<Entry> out, Set<Long> seen)
        throws BoltFormatException {
      if (!seen.add(id)) {
        throw new BoltFormatException("page " + id + " is reached twice");
      }
      check(offset, PAGE_HEADER);
      int flags = file.getShort(offset + 8) & 0xffff;
      int count = file.getShort(offset + 10) & 0xffff;
      check(offset + PAGE_HEADER, count * ELEMENT);
      for (int i = 0; i < count; i++) {
        int element = offset + PAGE_HEADER + i * ELEMENT;
        if ((flags & BRANCH_PAGE) != 0) {
          long child = file.getLong(element + 8);
          collect(pageOffset(child), child, out, seen);
        } else if ((flags & LEAF_PAGE) != 0) {
          int leafFlags = file.getInt(element);
          int key = element + file.getInt(element + 4);
          int keyLength = file.getInt(element + 8);
          int valueLength = file.getInt(element + 12);
          if (keyLength < 0 || valueLength < 0) {
            throw new BoltFormatException("negative length at page " + id);
          }
          check(key, keyLength + (long) valueLength);
          byte[] name = new byte[keyLength];
          file.get(key, name);
          out.add(new Entry(
              new String(name, StandardCharsets.UTF_8),
              (leafFlags & BUCKET_LEAF) != 0,
              key + keyLength,
              valueLength));
        } else {
          throw new BoltFormatException("page " + id + " is neither a branch nor a leaf");
        }
      }
    }
  }

  private int pageOffset(long id) throws BoltFormatException {
    long offset = id * pageSize;
    if (id < 2 || offset + PAGE_HEADER > file.capacity()) {
      throw new BoltFormatException("page " + id + " is outside the file");
    }
    return (int) offset;
  }

  private void check(long offset, long length) throws BoltFormatException {
    if (offset < 0 || length < 0 || offset + length > file.capacity()) {
      throw new BoltFormatException(
          length + " bytes at " + offset + " are outside the file of " + file.capacity());
    }
  }

  private record Entry(String key, boolean bucket, int value, int valueLength) {}

  /** The file is no bbolt database this reader understands, or is damaged. */
  public static final class BoltFormatException extends NoneopsException {
    private static final long serialVersionUID = 1L;

    BoltFormatException(String message) {
      super(message);
    }
  }
}
