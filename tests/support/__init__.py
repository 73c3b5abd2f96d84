"""What the tests share: helpers imported by several test modules (fixtures
live in the conftest files). A test module never imports another."""
