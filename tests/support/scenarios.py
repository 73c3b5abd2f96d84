"""An acceptance scenario (../shared/scenarios) run through the JSON API:
every step's status and answer, and a refused step changes nothing."""


def _send(client, path, step, body):
    headers = dict(step.get("headers", {}))
    if "raw" in step:
        return client.post(path, data=step["raw"], headers=headers,
                           content_type=step.get("content_type", "application/json"))
    return client.post(path, json=body, headers=headers)


def _check_error(response):
    data = response.get_json()
    assert isinstance(data, dict), response.data
    assert isinstance(data.get("error"), str) and data["error"].strip(), data


def run_scenario(client, scenario):
    if "creates" in scenario:
        for attempt in scenario["creates"]:
            response = client.post("/api/games", json=attempt["game"])
            assert response.status_code == attempt["status"], (attempt, response.get_json())
            if response.status_code >= 400:
                _check_error(response)
        return
    response = client.post("/api/games", json=scenario["game"])
    expected_create = scenario.get("create_status", 201)
    assert response.status_code == expected_create, response.get_json()
    if expected_create != 201:
        _check_error(response)
        return
    game = response.get_json()
    game_id = game["id"]
    versions = [game["version"]]  # version before each accepted step
    highest = game["version"]
    for number, step in enumerate(scenario["steps"], 1):
        where = f"step {number}: {step}"
        target = step.get("game_id", game_id)
        before = client.get(f"/api/games/{game_id}").get_json()
        if "get" in step:
            response = client.get(f"/api/games/{target}")
        else:
            if "undo" in step:
                path, body = f"/api/games/{target}/undo", dict(step["undo"])
            else:  # an event, or a raw body sent to the events endpoint
                path, body = f"/api/games/{target}/events", dict(step.get("event", {}))
            if step.get("use_version") == "current":
                body["expected_version"] = before["version"]
            elif step.get("use_version") == "previous":
                body["expected_version"] = versions[-2]
            response = _send(client, path, step, body)
        status = step.get("status", 200)
        assert response.status_code == status, (where, response.get_json())
        data = response.get_json()
        if status >= 400:
            _check_error(response)
            after = client.get(f"/api/games/{game_id}").get_json()
            assert after == before, where
            continue
        for key, value in step.get("expect", {}).items():
            assert data[key] == value, (where, key, data[key], value)
        if "get" in step:
            continue
        if step.get("replay"):
            assert data == before, where
        else:
            assert data["version"] > highest, where
            highest = data["version"]
            versions.append(data["version"])
