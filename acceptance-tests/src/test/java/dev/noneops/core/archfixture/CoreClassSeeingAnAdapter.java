package dev.noneops.core.archfixture;

/** A deliberately bad core class: it names an adapter class. Test fixture only. */
public final class CoreClassSeeingAnAdapter {
  private CoreClassSeeingAnAdapter() {}

  static Class<?> adapter() throws ClassNotFoundException {
    return dev.noneops.testkit.archfixture.AdapterStandIn.class;
  }
}
