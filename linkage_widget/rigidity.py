RigidityReport = analyze = None
