#!/usr/bin/python3
# A WebKitGTK browser for WebKitWebDriver with a persistent website data store, as Safari has: the
# MiniBrowser Debian ships runs an ephemeral (private) store under automation, where WebKit
# refuses the Origin Private File System, so the studio's OPFS export path (the worker opening
# the file itself: WebKit cannot clone a file handle to a worker) could not be tested through it.
# The same WebKitGTK library (gir1.2-webkit2-4.1), one window, Safari's storage features on.
#
#   webkit-profile-browser.py --automation --data-dir=DIR --features=StorageAPI,FileSystem,...
#
# Started by WebKitWebDriver (its capabilities' webkitgtk:browserOptions binary, args).

import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("WebKit2", "4.1")
from gi.repository import Gtk, WebKit2  # noqa: E402

data_dir = None
features = []
for arg in sys.argv[1:]:
    if arg.startswith("--data-dir="):
        data_dir = arg.split("=", 1)[1]
    elif arg.startswith("--features="):
        features = [f.strip().lstrip("+") for f in arg.split("=", 1)[1].split(",") if f.strip()]
if not data_dir:
    sys.exit("webkit-profile-browser: --data-dir=DIR is required")

manager = WebKit2.WebsiteDataManager(base_data_directory=f"{data_dir}/data", base_cache_directory=f"{data_dir}/cache")
context = WebKit2.WebContext(website_data_manager=manager)
context.set_automation_allowed(True)

settings = WebKit2.Settings()
# As iOS Safari: media (Web Audio included) starts only from a user gesture, autoplay denied.
settings.set_media_playback_requires_user_gesture(True)
policies = WebKit2.WebsitePolicies(autoplay=WebKit2.AutoplayPolicy.DENY)
known = WebKit2.Settings.get_all_features()
wanted = set(features)
for i in range(known.get_length()):
    feature = known.get(i)
    if feature.get_identifier() in wanted:
        settings.set_feature_enabled(feature, True)
        wanted.discard(feature.get_identifier())
if wanted:
    sys.exit(f"webkit-profile-browser: unknown WebKit features: {', '.join(sorted(wanted))}")


def create_view(_session):
    view = WebKit2.WebView(web_context=context, settings=settings, website_policies=policies, is_controlled_by_automation=True)
    window = Gtk.Window()
    window.set_default_size(1280, 900)
    window.add(view)
    window.show_all()
    return view


def automation_started(_context, session):
    info = WebKit2.ApplicationInfo()
    info.set_name("MiniBrowser")
    info.set_version(WebKit2.get_major_version(), WebKit2.get_minor_version(), WebKit2.get_micro_version())
    session.set_application_info(info)
    session.connect("create-web-view", create_view)


context.connect("automation-started", automation_started)
Gtk.main()
