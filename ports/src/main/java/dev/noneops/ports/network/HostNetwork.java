package dev.noneops.ports.network;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * The host's network links and their addresses, as far as a node changes them: LocalDNS listens
 * on a link-local address of a dummy link of its own.
 *
 * <p>Link names are Linux interface names (1 to 15 characters, no {@code /}, {@code :} or white
 * space); another name is an {@link IllegalArgumentException}, raised before the host is asked.
 * Failures are {@link dev.noneops.ports.HostIOException}s (see the package {@code dev.noneops.ports}):
 * {@link dev.noneops.ports.Errno#ENODEV} for a link that does not exist,
 * {@link dev.noneops.ports.Errno#EEXIST} for a name that is taken,
 * {@link dev.noneops.ports.Errno#EOPNOTSUPP} for a kernel without dummy links.
 */
public interface HostNetwork {

  /** The link named {@code name} with its kind, state and addresses; empty when there is none. */
  Optional<NetworkLink> link(String name) throws IOException;

  /** The names of every link the host has, whatever its kind, sorted. */
  List<String> linkNames() throws IOException;

  /** Creates a dummy link, down and without addresses; EEXIST when a link of that name exists, whatever its kind. */
  void addDummyLink(String name) throws IOException;

  /**
   * Creates a dummy link that is up, without addresses, as one change where the host can make it
   * one (one {@code ip link add <name> up type dummy}); EEXIST, with nothing changed, when a link
   * of that name exists, whatever its kind. This default adds the link, then sets it up.
   */
  default void addUpDummyLink(String name) throws IOException {
    addDummyLink(name);
    setUp(name);
  }

  /**
   * Assigns {@code address} (CIDR, e.g. {@code 169.254.20.10/32}) to the link; an address it
   * already has is assigned again, not refused.
   */
  void assignAddress(String link, String address) throws IOException;

  /** Brings the link up; a link that is up stays up. */
  void setUp(String link) throws IOException;

  /** Deletes the link, and with it its addresses; ENODEV when there is none. */
  void deleteLink(String name) throws IOException;

  /**
   * The sockets bound to local {@code port}: TCP ones that listen and UDP ones that are bound, each
   * with its local address ({@code 0.0.0.0} or {@code ::} for every address). Changes nothing.
   */
  List<Listener> listeners(int port) throws IOException;
}
