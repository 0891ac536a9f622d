"""Kept backups (issue 14 point 8) must not open a way in.

`/api/v1/backups/{name}` serves and restores only the names the backups folder gives (stockroom-YYYYMMDD-HHMMSS.zip),
never a path, another file of the data folder or a backup's record; only admins reach it, a browser only with its
CSRF token; a hostile file planted in the folder under a backup's name is checked as an upload is and refused; the
folder is 0700 and every file in it 0600. After each refusal the shop's data is unchanged."""
import os
import stat

import pytest

from conftest import MANAGER, STAFF, Session, make_server, unchanged


@pytest.fixture(scope="module")
def kept():
    server = make_server()
    taken = server.ok("POST", "/api/v1/backups")
    assert taken["check"] == "passed", taken
    server.kept_name = taken["name"]
    yield server
    server.cleanup()


@pytest.mark.parametrize("target", [
    "/api/v1/backups/..%2Fstockroom.sqlite", "/api/v1/backups/%2E%2E", "/api/v1/backups/stockroom.sqlite",
    "/api/v1/backups/..%2F..%2F..%2Fetc%2Fpasswd", "/api/v1/backups/stockroom-20200101-000000.zip",
    "/api/v1/backups/stockroom-20200101-000000.json", "/api/v1/backups/%2Fetc%2Fpasswd",
    "/api/v1/backups/stockroom-20200101-000000.zip%00.json", "/api/v1/backups/images",
])
def test_only_the_folders_own_names_are_served(kept, target):
    with unchanged(kept):
        for method, path in (("GET", target), ("POST", target + "/restore")):
            reply = kept.call(method, path)
            assert reply.status in (400, 404), (method, path, reply)
            assert b"SQLite format 3" not in reply.body and b"root:" not in reply.body


def test_a_backups_record_is_not_served(kept):
    record = kept.kept_name.replace(".zip", ".json")
    reply = kept.call("GET", "/api/v1/backups/" + record)
    assert reply.status == 404 and reply.problem_field == "name", reply


def test_staff_managers_and_strangers_are_refused(kept):
    name = kept.kept_name
    with unchanged(kept):
        for user in (STAFF, MANAGER):
            session = kept.session(user[0], user[1])
            for method, path in (("GET", "/api/v1/backups"), ("POST", "/api/v1/backups"), ("GET", f"/api/v1/backups/{name}"),
                                 ("POST", f"/api/v1/backups/{name}/restore")):
                reply = kept.call(method, path, auth=session)
                assert reply.status == 403, (user[0], method, path, reply)
                assert b"PK\x03\x04" not in reply.body
        for method, path in (("GET", "/api/v1/backups"), ("GET", f"/api/v1/backups/{name}"), ("POST", f"/api/v1/backups/{name}/restore")):
            assert kept.call(method, path, auth="anonymous").status == 401, (method, path)
    assert len(kept.ok("GET", "/api/v1/backups")["backups"]) == 1, "no refused call took a backup"


def test_a_browser_needs_its_csrf_token(kept):
    forged = Session(kept.admin_session.cookie, "not-the-token")
    with unchanged(kept):
        assert kept.call("POST", f"/api/v1/backups/{kept.kept_name}/restore", auth=forged).status == 403
        assert kept.call("POST", "/api/v1/backups", auth=forged).status == 403
    assert len(kept.ok("GET", "/api/v1/backups")["backups"]) == 1


def test_a_hostile_file_planted_under_a_backups_name_is_refused(kept):
    folder = kept.data / "backups"
    for name, content in (("stockroom-20200101-000000.zip", b"PK\x03\x04" + os.urandom(4000)),
                          ("stockroom-20200101-000001.zip", b"SQLite format 3\x00" + os.urandom(8000)),
                          ("stockroom-20200101-000002.zip", b"#!/bin/sh\nrm -rf /\n")):
        (folder / name).write_bytes(content)
        with unchanged(kept):
            reply = kept.call("POST", f"/api/v1/backups/{name}/restore")
            assert reply.status == 422 and reply.problem_field == "file", (name, reply)
        assert kept.call("GET", "/api/v1/auth/me").status == 200, "the shop still works"


def test_the_folder_and_its_files_are_the_servers_users_only(kept):
    folder = kept.data / "backups"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    for entry in folder.iterdir():
        if entry.name.startswith("stockroom-2020"):
            continue  # planted by the test above
        assert stat.S_IMODE(entry.stat().st_mode) == 0o600, entry.name
    assert not [entry.name for entry in folder.iterdir() if entry.name.startswith(".")], "no scratch file left behind"
