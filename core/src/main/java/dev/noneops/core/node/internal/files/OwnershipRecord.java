package dev.noneops.core.node.internal.files;

import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The record of every shared host path this node wrote (outside its own layout), with what it
 * wrote there. Teardown removes only what is recorded here and, for files, only while their
 * content still has the recorded sha256 (otherwise someone else changed the file since).
 * Immutable; {@link #with} and {@link #without} return updated copies.
 */
public final class OwnershipRecord {
  public static final OwnershipRecord EMPTY = new OwnershipRecord(new TreeMap<>());

  private final SortedMap<Path, OwnedEntry> entries;

  private OwnershipRecord(SortedMap<Path, OwnedEntry> entries) {
    this.entries = Collections.unmodifiableSortedMap(entries);
  }

  public static OwnershipRecord of(List<OwnedEntry> entries) {
    SortedMap<Path, OwnedEntry> map = new TreeMap<>();
    for (OwnedEntry e : entries) {
      map.put(e.path(), e);
    }
    return new OwnershipRecord(map);
  }

  /** Every entry, sorted by path (so a directory comes before what it contains). */
  public List<OwnedEntry> entries() {
    return List.copyOf(entries.values());
  }

  public Optional<OwnedEntry> get(Path path) {
    return Optional.ofNullable(entries.get(path));
  }

  public boolean owns(Path path) {
    return entries.containsKey(path);
  }

  public OwnershipRecord with(OwnedEntry entry) {
    SortedMap<Path, OwnedEntry> copy = new TreeMap<>(entries);
    copy.put(entry.path(), entry);
    return new OwnershipRecord(copy);
  }

  public OwnershipRecord without(Path path) {
    if (!entries.containsKey(path)) {
      return this;
    }
    SortedMap<Path, OwnedEntry> copy = new TreeMap<>(entries);
    copy.remove(path);
    return new OwnershipRecord(copy);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof OwnershipRecord other && entries.equals(other.entries);
  }

  @Override
  public int hashCode() {
    return entries.hashCode();
  }

  @Override
  public String toString() {
    return "OwnershipRecord" + entries.values();
  }
}
