"""A table's own preset, from the settings page to a game that applies it."""

from playwright.sync_api import expect

from support.table import expect_scores, tap


def test_a_preset_made_in_the_settings_is_applied_to_a_game(phone, screenshot):
    phone.goto("/settings")
    phone.get_by_role("link", name="Nouveau jeu de règles").tap()
    phone.get_by_label("Nom").fill("Chez Omar")
    phone.get_by_label("Score à atteindre").fill("21")
    phone.get_by_label("Valeurs de la chaîne de coups").select_option("1-6-15")
    screenshot(phone, "settings-preset")
    phone.get_by_role("button", name="Enregistrer le jeu de règles").tap()
    expect(phone.get_by_text("Jeu de règles enregistré.")).to_be_visible()

    phone.goto("/games/new")
    phone.get_by_label("Règles", exact=True).select_option("Chez Omar")  # reloads the form
    expect(phone.get_by_text("partie en 21 · Tringa 5 · coups 1/6/15")).to_be_visible()
    phone.get_by_label("Premier camp").fill("Nous")
    phone.get_by_label("Deuxième camp").fill("Eux")
    phone.get_by_role("button", name="Commencer la partie").tap()
    expect(phone.get_by_text("Partie en 21", exact=False)).to_be_visible()

    tap(phone, "1 Bount pour Nous")
    tap(phone, "Coup de 6 pour Eux")
    tap(phone, "Coup de 15 pour Nous")
    expect_scores(phone, 15, 0)
    tap(phone, "Missa pour Nous")
    expect_scores(phone, 16, 0)
    phone.get_by_role("link", name="Plus").tap()
    phone.get_by_role("link", name="Les règles de cette partie").tap()
    expect(phone.get_by_role("heading", name="Les règles de cette partie")).to_be_visible()
    expect(phone.get_by_text("Jeu de règles : Chez Omar")).to_be_visible()
